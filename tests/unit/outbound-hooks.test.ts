import { describe, expect, it } from "vitest";
import { hooksOf, registerOutboundHooks } from "@/lib/money-out/outbound/outbound-hooks";

// The engine moves a payout's transfer only with the payouts' hooks (deny-list and sanctions before signing,
// the payout moved with its transfer): a process that never registered them must stop, not send unchecked.
describe("outbound hooks", () => {
  it("refuse a payout's transfer when no hooks were registered; other purposes need none", () => {
    expect(() => hooksOf("payout")).toThrow("no outbound hooks registered for payout transfers");
    expect(hooksOf("sweep")).toEqual({});
    const refuseSigning = async () => true;
    registerOutboundHooks("payout", { refuseSigning });
    expect(hooksOf("payout").refuseSigning).toBe(refuseSigning);
  });
});
