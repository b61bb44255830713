import { createPublicClient, erc20Abi, http, type Address } from "viem";
import { beforeAll, describe, expect, it } from "vitest";
import { api, expectError, newMerchant, type TestMerchant } from "../helpers/api";
import { sandboxChain } from "../helpers/chains";
import { TEST_SOLANA_FINALITY_DEPTH, TEST_TRON_SOLID_LAG } from "../setup/sandbox-chains";

let m: TestMerchant;
beforeAll(async () => {
  m = await newMerchant();
});

describe("sandbox test helpers", () => {
  it("GET /v1/sandbox/chains describes each running chain", async () => {
    const reply = await api("GET", "/v1/sandbox/chains", { key: m.sandboxKey });
    expect(reply.status).toBe(200);
    const byChain: Record<string, any> = Object.fromEntries(
      (reply.json.data as { chain: string }[]).map((c) => [c.chain, c]),
    );
    expect(Object.keys(byChain).sort()).toEqual(["bnb", "eth", "polygon", "solana", "tron"]);
    expect(byChain.eth).toMatchObject({
      object: "sandbox_chain",
      emulated: false,
      chain_id: 900001,
      decimals: 6,
      block_time_ms: 500,
      confirmations_threshold: 2,
      confirmations_required: 4,
    });
    expect(byChain.bnb).toMatchObject({ decimals: 18, chain_id: 900056 });
    expect(byChain.polygon).toMatchObject({ decimals: 6, chain_id: 900137 });
    expect(byChain.tron).toMatchObject({
      emulated: true,
      decimals: 6,
      token_address: expect.stringMatching(/^T[1-9A-HJ-NP-Za-km-z]{33}$/),
      confirmations_required: TEST_TRON_SOLID_LAG,
    });
    expect(byChain.solana).toMatchObject({
      emulated: true,
      decimals: 6,
      block_time_ms: 200,
      token_address: expect.stringMatching(/^[1-9A-HJ-NP-Za-km-z]{32,44}$/),
      confirmations_required: TEST_SOLANA_FINALITY_DEPTH,
    });
    expect(byChain.solana).not.toHaveProperty("chain_id");
    for (const c of Object.values(byChain)) expect(c.rpc_url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    for (const chain of ["eth", "bnb", "polygon"]) expect(byChain[chain].token_address).toMatch(/^0x[0-9a-fA-F]{40}$/);
  });

  it("do not exist for live keys", async () => {
    for (const [method, path, body] of [
      ["GET", "/v1/sandbox/chains", undefined],
      [
        "POST",
        "/v1/sandbox/faucet",
        { chain: "eth", address: "0x000000000000000000000000000000000000dEaD", amount: "1.000000" },
      ],
      ["POST", "/v1/sandbox/chains/eth/mine", { blocks: 1 }],
    ] as const) {
      expectError(await api(method, path, { key: m.liveKey, body }), "not_found", 404);
    }
  });

  it("the faucet sends test USDT in the chain's own decimals, and refuses what it cannot do", async () => {
    const address = "0x00000000000000000000000000000000000b0b01" as Address;
    const bnb = await sandboxChain("bnb");
    const reply = await api("POST", "/v1/sandbox/faucet", {
      key: m.sandboxKey,
      body: { chain: "bnb", address, amount: "2.500000" },
    });
    expect(reply.status, reply.text).toBe(200);
    expect(reply.json).toMatchObject({
      chain: "bnb",
      address,
      amount: "2.500000",
      tx_hash: expect.stringMatching(/^0x[0-9a-f]{64}$/),
    });
    const client = createPublicClient({ transport: http(bnb.rpcUrl), pollingInterval: 50 });
    await client.waitForTransactionReceipt({ hash: reply.json.tx_hash });
    expect(
      await client.readContract({
        address: bnb.tokenAddress as Address,
        abi: erc20Abi,
        functionName: "balanceOf",
        args: [address],
      }),
    ).toBe(2_500_000_000_000_000_000n);
    expect(await client.getBalance({ address })).toBeGreaterThan(0n);

    expectError(
      await api("POST", "/v1/sandbox/faucet", {
        key: m.sandboxKey,
        body: { chain: "eth", address: "0x123", amount: "1.000000" },
      }),
      "invalid_request_error",
      400,
      "address",
    );
    expectError(
      await api("POST", "/v1/sandbox/faucet", {
        key: m.sandboxKey,
        body: { chain: "eth", address, amount: "1000000.000001" },
      }),
      "invalid_request_error",
      400,
      "amount",
    );
    expectError(
      await api("POST", "/v1/sandbox/faucet", {
        key: m.sandboxKey,
        body: { chain: "doge", address, amount: "1.000000" },
      }),
      "invalid_request_error",
      400,
      "chain",
    );
  });

  it(
    "simulate needs a payment with a network; mine advances the chain; " + "reorg refuses an impossible depth",
    async () => {
      const agnostic = (await api("POST", "/v1/payments", { key: m.sandboxKey, body: { amount: "1.000000" } })).json;
      expectError(
        await api("POST", `/v1/sandbox/payments/${agnostic.id}/simulate`, { key: m.sandboxKey, body: {} }),
        "invalid_request_error",
        400,
        "id",
      );
      expectError(
        await api("POST", "/v1/sandbox/payments/pay_doesnotexist/simulate", { key: m.sandboxKey, body: {} }),
        "not_found",
        404,
        "id",
      );
      expectError(
        await api("POST", `/v1/sandbox/payments/${agnostic.id}/simulate`, { key: m.sandboxKey, body: { amount: 5 } }),
        "invalid_request_error",
        400,
        "amount",
      );

      const polygon = await sandboxChain("polygon");
      const client = createPublicClient({ transport: http(polygon.rpcUrl), cacheTime: 0 });
      const before = Number(await client.getBlockNumber());
      const mined = await api("POST", "/v1/sandbox/chains/polygon/mine", { key: m.sandboxKey, body: { blocks: 5 } });
      expect(mined.status, mined.text).toBe(200);
      expect(mined.json.head).toBeGreaterThanOrEqual(before + 5);
      expectError(
        await api("POST", "/v1/sandbox/chains/polygon/mine", { key: m.sandboxKey, body: { blocks: 0 } }),
        "invalid_request_error",
        400,
        "blocks",
      );
      expectError(
        await api("POST", "/v1/sandbox/chains/dogecoin/mine", { key: m.sandboxKey, body: {} }),
        "not_found",
        404,
        "chain",
      );
      expectError(
        await api("POST", "/v1/sandbox/chains/polygon/reorg", { key: m.sandboxKey, body: { depth: 10_000 } }),
        "invalid_request_error",
        400,
        "depth",
      );
      expectError(
        await api("POST", "/v1/sandbox/chains/polygon/reorg", { key: m.sandboxKey, body: {} }),
        "invalid_request_error",
        400,
        "depth",
      );
    },
  );
});
