import { createPublicClient, http, type PublicClient } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { describe, expect, it } from "vitest";
import { getDb } from "@/lib/platform/db/client";
import { query } from "@/lib/platform/db/query";
import { DEFAULT_SCOPES } from "@/lib/identity/api-keys/scopes";
import { api, expectError, newMerchant } from "../helpers/api";
import { sandboxChain } from "../helpers/chains";
import { runCli } from "../helpers/run-cli";

// The sandbox chains are every tenant's: one merchant's ordinary sandbox key must not reorganize, drop,
// freeze or congest them for all. Those four need `sandbox:chains`, which only the operator grants; the
// per-payment helpers stay on ordinary keys.
const control = (key: string, chain: string, action: string, body: unknown) =>
  api("POST", `/v1/sandbox/chains/${chain}/${action}`, { key, body });

describe("the chain-wide sandbox controls", () => {
  it("refuse a tenant's sandbox key (403, nothing done), and take the operator's", async () => {
    const [tenant, operator] = [await newMerchant("Tenant", { sandboxChains: false }), await newMerchant("Operator")];
    const scopes = await query<{ scopes: string[] }>(getDb(), "select scopes from api_keys where merchant_id = $1", [
      tenant.id,
    ]);
    expect(scopes.map((k) => k.scopes)).toEqual([DEFAULT_SCOPES, DEFAULT_SCOPES]);

    const polygon = await sandboxChain("polygon");
    const client = createPublicClient({ transport: http(polygon.rpcUrl) }) as PublicClient;
    const head = await client.getBlock({ blockTag: "latest" });
    const victim = privateKeyToAccount(generatePrivateKey()).address;
    for (const [chain, action, body] of [
      ["polygon", "reorg", { depth: 1 }],
      ["eth", "freeze", { address: victim }],
      ["eth", "unfreeze", { address: victim }],
      ["bnb", "congest", { base_fee_gwei: "900" }],
      ["bnb", "drop", { tx_hash: `0x${"ab".repeat(32)}` }],
    ] as const) {
      const refused = await control(tenant.sandboxKey, chain, action, body);
      expectError(refused, "forbidden", 403);
      expect(refused.json.error.message).toContain("'sandbox:chains'");
    }
    // Nothing happened: the head block is still in the chain, the address was never frozen.
    expect((await client.getBlock({ blockNumber: head.number })).hash).toBe(head.hash);
    const unfreeze = await control(operator.sandboxKey, "eth", "unfreeze", { address: victim });
    expect(unfreeze.json).toMatchObject({ frozen: false, tx_hash: null });

    // Per-payment helpers and mining stay on ordinary sandbox keys.
    expect((await control(tenant.sandboxKey, "polygon", "mine", { blocks: 1 })).status).toBe(200);
    const payment = await api("POST", "/v1/payments", {
      key: tenant.sandboxKey,
      body: { amount: "1.000000", chain: "polygon" },
    });
    expect(
      (await api("POST", `/v1/sandbox/payments/${payment.json.id}/simulate`, { key: tenant.sandboxKey })).status,
    ).toBe(200);
    // The operator's key does it.
    const frozen = await control(operator.sandboxKey, "eth", "freeze", { address: victim });
    expect(frozen.json).toMatchObject({ frozen: true });
    expect((await control(operator.sandboxKey, "eth", "unfreeze", { address: victim })).json.frozen).toBe(false);
  });

  it("the operator grants it with the CLI, to sandbox keys only", async () => {
    const m = await newMerchant("Granted", { sandboxChains: false });
    const run = (mode: string) =>
      runCli(
        ["keys", "create", "--merchant", m.id, "--mode", mode, "--scopes", "payments:write,sandbox:chains", "--json"],
        { ...process.env },
      );
    const [live, sandbox] = await Promise.all([run("live"), run("sandbox")]);
    expect(live.code).toBe(2);
    expect(live.stdout + live.stderr).toContain("sandbox:chains is for sandbox keys");
    expect(sandbox.code, sandbox.stderr).toBe(0);
    const key = JSON.parse(sandbox.stdout).secret as string;
    const victim = privateKeyToAccount(generatePrivateKey()).address;
    expect((await control(key, "polygon", "freeze", { address: victim })).json).toMatchObject({ frozen: true });
    expect((await control(key, "polygon", "unfreeze", { address: victim })).json).toMatchObject({ frozen: false });
  });
});
