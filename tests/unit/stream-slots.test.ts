import { EventEmitter } from "node:events";
import type { ServerResponse } from "node:http";
import { describe, expect, it } from "vitest";
import {
  admitStatusStream,
  openStatusStreams,
  STREAMS_PER_CLIENT,
  STREAMS_PER_PROCESS,
} from "@/lib/http/server/stream-slots";

/** Just enough of a response: headers, end, and the close event a real socket emits. */
function fakeResponse() {
  const res = Object.assign(new EventEmitter(), {
    statusCode: 200,
    headers: {} as Record<string, string>,
    body: "",
    setHeader(name: string, value: string) {
      res.headers[name.toLowerCase()] = value;
    },
    end(body?: string) {
      res.body = body ?? "";
    },
  });
  return res;
}
const admit = (key: string) => {
  const res = fakeResponse();
  return { res, admitted: admitStatusStream(key, res as unknown as ServerResponse) };
};

describe("the cap on open live-status streams", () => {
  it(`refuses a client's stream beyond ${STREAMS_PER_CLIENT}, and the process's beyond ${STREAMS_PER_PROCESS}`, () => {
    const mine = Array.from({ length: STREAMS_PER_CLIENT }, () => admit("10.0.0.1"));
    expect(mine.every((s) => s.admitted)).toBe(true);
    const refused = admit("10.0.0.1");
    expect(refused.admitted).toBe(false);
    expect(refused.res.statusCode).toBe(429);
    expect(Number(refused.res.headers["retry-after"])).toBeGreaterThan(0);
    expect(JSON.parse(refused.res.body).error.type).toBe("rate_limit_exceeded");

    mine[0]!.res.emit("close");
    expect(openStatusStreams("10.0.0.1")).toBe(STREAMS_PER_CLIENT - 1);
    expect(admit("10.0.0.1").admitted).toBe(true);

    const others = Array.from({ length: STREAMS_PER_PROCESS - STREAMS_PER_CLIENT }, (_, i) => admit(`key-${i}`));
    expect(others.every((s) => s.admitted)).toBe(true);
    expect(openStatusStreams()).toBe(STREAMS_PER_PROCESS);
    expect(admit("a-new-client").admitted).toBe(false);
    for (const s of others) s.res.emit("close");
    expect(openStatusStreams()).toBe(STREAMS_PER_CLIENT);
    expect(admit("a-new-client").admitted).toBe(true);
  });
});
