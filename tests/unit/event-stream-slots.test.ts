import { afterEach, describe, expect, it } from "vitest";
import { EVENT_STREAM_LIMITS, takeStreamSlot } from "@/lib/http/sse/key-stream-slots";

const DEFAULTS = { ...EVENT_STREAM_LIMITS };
afterEach(() => Object.assign(EVENT_STREAM_LIMITS, DEFAULTS));

const key = (keyId: string, merchantId = "mer_a", mode = "sandbox") => ({ keyId, merchantId, mode });
const refusal = (take: () => unknown) => {
  try {
    take();
  } catch (err) {
    return (err as Error).message;
  }
  return null;
};

describe("event stream slots", () => {
  it("per key, per merchant and mode, per process; each place given back once", () => {
    Object.assign(EVENT_STREAM_LIMITS, { perKey: 2, perOwner: 3, perProcess: 4 });
    const held = [takeStreamSlot(key("k1")), takeStreamSlot(key("k1"))];
    expect(refusal(() => takeStreamSlot(key("k1")))).toMatch(/This API key already has 2 open event streams/);
    held.push(takeStreamSlot(key("k2")));
    expect(refusal(() => takeStreamSlot(key("k3")))).toMatch(/Your account already has 3 open event streams/);
    held.push(takeStreamSlot(key("k4", "mer_b")));
    expect(refusal(() => takeStreamSlot(key("k5", "mer_c")))).toMatch(/Too many event streams are open on this server/);
    held[0]!();
    held[0]!(); // twice: still one place
    const last = takeStreamSlot(key("k5", "mer_c"));
    expect(refusal(() => takeStreamSlot(key("k6", "mer_d")))).toMatch(/Too many/);
    for (const release of [...held, last]) release();
    expect(refusal(() => takeStreamSlot(key("k6", "mer_d"))())).toBeNull();
  });
});
