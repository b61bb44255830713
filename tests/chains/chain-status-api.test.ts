import { describe, expect, it } from "vitest";
import { api, expectError, newKey, newMerchant } from "../helpers/api";

describe("GET /v1/chains", () => {
  it("lists each sandbox chain with the confirmation policy and block time its payments follow", async () => {
    const m = await newMerchant();
    const chains = await api("GET", "/v1/chains", { key: m.sandboxKey });
    expect(chains.status, chains.text).toBe(200);
    const sandbox = await api("GET", "/v1/sandbox/chains", { key: m.sandboxKey });
    // In the chains' own order (the sandbox list follows registration order).
    expect(chains.json.data.map((c: any) => c.chain)).toEqual(
      ["eth", "bnb", "polygon", "tron", "solana"].filter((c) => sandbox.json.data.some((s: any) => s.chain === c)),
    );
    for (const c of sandbox.json.data) {
      const listed = chains.json.data.find((l: any) => l.chain === c.chain);
      expect(listed, c.chain).toMatchObject({
        object: "chain",
        confirmations: { confirming: c.confirmations_threshold, confirmed: c.confirmations_required },
        block_time_ms: c.block_time_ms,
      });
      expect(listed.healthy).toBe(listed.status === "ok");
    }
  });

  it("needs payments:read, and a live key sees only the live chains configured (none here)", async () => {
    const m = await newMerchant();
    const writer = await newKey(m.id, "sandbox", ["payouts:write"]);
    expectError(await api("GET", "/v1/chains", { key: writer.secret }), "forbidden", 403);
    const live = await api("GET", "/v1/chains", { key: m.liveKey });
    expect(live.json).toEqual({ object: "list", data: [] });
  });
});
