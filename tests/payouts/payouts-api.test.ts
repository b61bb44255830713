import { describe, expect, it } from "vitest";
import { getDb } from "@/lib/platform/db/client";
import { adjustBalance } from "@/lib/books/ledger/adjust-balance";
import { checkLedgerConsistency } from "@/lib/books/ledger/check-ledger-consistency";
import { api, expectError, newKey, newMerchant, postRetryingBusy } from "../helpers/api";

const EVM_TO = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";
const fund = (merchantId: string, chain: "eth" | "tron" | "solana" | "bnb" | "polygon", usdt: number) =>
  adjustBalance(getDb(), {
    merchantId,
    mode: "sandbox",
    chain,
    amount: BigInt(usdt) * 1_000_000n,
    reason: "test funding",
  });
const balanceOf = async (key: string, chain: string) =>
  (await api("GET", "/v1/balances", { key })).json.data.find((b: { chain: string }) => b.chain === chain);

describe("GET /v1/balances", () => {
  it("one entry per enabled chain of the mode, zeros included, 6-decimal strings", async () => {
    const m = await newMerchant();
    const sandbox = (await api("GET", "/v1/balances", { key: m.sandboxKey })).json;
    expect(sandbox).toEqual({
      object: "list",
      data: ["eth", "bnb", "polygon", "tron", "solana"].map((chain) => ({
        chain,
        symbol: "USDT",
        available: "0.000000",
        reserved: "0.000000",
        in_flight: "0.000000",
      })),
    });
    // No live chain has an RPC configured on the test servers: the live list is empty, not an error.
    expect((await api("GET", "/v1/balances", { key: m.liveKey })).json).toEqual({ object: "list", data: [] });
    await fund(m.id, "tron", 12);
    expect(await balanceOf(m.sandboxKey, "tron")).toEqual({
      chain: "tron",
      symbol: "USDT",
      available: "12.000000",
      reserved: "0.000000",
      in_flight: "0.000000",
    });
    // Another merchant's balance is untouched.
    const other = await newMerchant();
    expect(await balanceOf(other.sandboxKey, "tron")).toMatchObject({ available: "0.000000" });
  });
});

describe("POST /v1/payouts", () => {
  it(
    "debits available in the same transaction and returns a " + "pending payout (docs/API.md#the-payout-object)",
    async () => {
      const m = await newMerchant();
      await fund(m.id, "eth", 100);
      const reply = await api("POST", "/v1/payouts", {
        key: m.sandboxKey,
        body: {
          chain: "eth",
          to_address: EVM_TO,
          amount: "40.500000",
          description: "weekly",
          metadata: { batch: "w47" },
        },
        headers: { "idempotency-key": "payout-1" },
      });
      expect(reply.status).toBe(200);
      expect(reply.json).toMatchObject({
        object: "payout",
        status: "pending",
        chain: "eth",
        to_address: EVM_TO,
        amount: "40.500000",
        currency: "USDT",
        tx_hash: null,
        description: "weekly",
        metadata: { batch: "w47" },
      });
      expect(reply.json.id).toMatch(/^pay_out_[0-9A-Za-z]{24}$/);
      expect(reply.json).not.toHaveProperty("confirmed_at");
      expect(await balanceOf(m.sandboxKey, "eth")).toMatchObject({ available: "59.500000" });
      // Idempotent: the retry neither creates nor debits again.
      const again = await api("POST", "/v1/payouts", {
        key: m.sandboxKey,
        body: {
          chain: "eth",
          to_address: EVM_TO,
          amount: "40.500000",
          description: "weekly",
          metadata: { batch: "w47" },
        },
        headers: { "idempotency-key": "payout-1" },
      });
      expect(again.text).toBe(reply.text);
      expect(await balanceOf(m.sandboxKey, "eth")).toMatchObject({ available: "59.500000" });
      expect(await checkLedgerConsistency(getDb(), m.id)).toEqual([]);
    },
  );

  it("not enough available → 422 insufficient_balance and nothing written", async () => {
    const m = await newMerchant();
    await fund(m.id, "solana", 5);
    const err = expectError(
      await api("POST", "/v1/payouts", {
        key: m.sandboxKey,
        body: { chain: "solana", to_address: "oeYf6KAJkLYhBuR8CiGc6L4D4Xtfepr85fuDgA9kq96", amount: "5.000001" },
      }),
      "insufficient_balance",
      422,
      "amount",
    );
    expect(err.message).toMatch(/Insufficient available balance on solana/);
    expect((await api("GET", "/v1/payouts", { key: m.sandboxKey })).json.data).toEqual([]);
    expect(await balanceOf(m.sandboxKey, "solana")).toMatchObject({ available: "5.000000" });
    // Another chain's balance does not count.
    expectError(
      await api("POST", "/v1/payouts", {
        key: m.sandboxKey,
        body: { chain: "eth", to_address: EVM_TO, amount: "1.000000" },
      }),
      "insufficient_balance",
      422,
      "amount",
    );
  });

  it("100 concurrent payouts against a balance that covers 10 yield exactly 10", async () => {
    const m = await newMerchant();
    await fund(m.id, "polygon", 10);
    // Payout endpoints allow 10 calls per minute per key, so spread the burst over twenty keys (five calls each,
    // room for a busy answer sent again, as the SDK does: on a loaded machine a request may find no free
    // database connection in time).
    const keys = await Promise.all(Array.from({ length: 20 }, () => newKey(m.id, "sandbox")));
    const replies = await Promise.all(
      Array.from({ length: 100 }, (_, i) =>
        postRetryingBusy("/v1/payouts", {
          key: keys[i % 20]!.secret,
          body: { chain: "polygon", to_address: EVM_TO, amount: "1.000000" },
          server: i % 2,
        }),
      ),
    );
    const statuses = replies.map((r) => r.status);
    expect(replies.filter((r) => r.status !== 200 && r.status !== 422).map((r) => [r.status, r.json])).toEqual([]);
    expect(statuses.filter((s) => s === 200)).toHaveLength(10);
    expect(statuses.filter((s) => s === 422)).toHaveLength(90);
    expect(await balanceOf(m.sandboxKey, "polygon")).toMatchObject({ available: "0.000000" });
    expect(await checkLedgerConsistency(getDb(), m.id)).toEqual([]);
  });

  it.each([
    [{ chain: "eth", to_address: "0x123", amount: "1.000000" }, "to_address", /40-hex-digit/],
    [
      { chain: "eth", to_address: "0x70997970c51812dc3a010c7d01b50e0d17dc79C8", amount: "1.000000" },
      "to_address",
      /EIP-55 checksum/,
    ],
    [{ chain: "eth", to_address: `0x${"0".repeat(40)}`, amount: "1.000000" }, "to_address", /zero address/],
    [
      { chain: "tron", to_address: "TWer2Ygk5TEheHp3TPuYeqxmB6SsGZmaL7", amount: "1.000000" },
      "to_address",
      /Tron base58check/,
    ],
    [{ chain: "tron", to_address: EVM_TO, amount: "1.000000" }, "to_address", /Tron/],
    [{ chain: "solana", to_address: "0OIl", amount: "1.000000" }, "to_address", /Solana/],
    [{ chain: "solana", to_address: "2", amount: "1.000000" }, "to_address", /32 bytes/],
    [{ chain: "doge", to_address: "x", amount: "1.000000" }, "chain", /one of/],
    [{ to_address: EVM_TO, amount: "1.000000" }, "chain", /Missing/],
    [{ chain: "eth", amount: "1.000000" }, "to_address", /Missing/],
    [{ chain: "eth", to_address: EVM_TO, amount: "1" }, "amount", /exactly 6 decimals/],
  ])("%j → 400 on %s", async (body, param, message) => {
    const m = await newMerchant();
    const err = expectError(
      await api("POST", "/v1/payouts", { key: m.sandboxKey, body }),
      "invalid_request_error",
      400,
      param,
    );
    expect(err.message).toMatch(message);
  });

  it("accepts all-lowercase EVM addresses and valid Tron/Solana addresses", async () => {
    const m = await newMerchant();
    for (const chain of ["eth", "tron", "solana"] as const) await fund(m.id, chain, 3);
    for (const [chain, to] of [
      ["eth", EVM_TO.toLowerCase()],
      ["tron", "TWer2Ygk5TEheHp3TPuYeqxmB6SsGZmaL6"],
      ["solana", "oeYf6KAJkLYhBuR8CiGc6L4D4Xtfepr85fuDgA9kq96"],
    ]) {
      expect(
        (await api("POST", "/v1/payouts", { key: m.sandboxKey, body: { chain, to_address: to, amount: "1.000000" } }))
          .status,
      ).toBe(200);
    }
  });
});

describe("GET /v1/payouts", () => {
  it("lists newest first with paging, validates status, and is isolated", async () => {
    const m = await newMerchant();
    const other = await newMerchant();
    await fund(m.id, "bnb", 10);
    const ids: string[] = [];
    for (let i = 0; i < 3; i++)
      ids.push(
        (
          await api("POST", "/v1/payouts", {
            key: m.sandboxKey,
            body: { chain: "bnb", to_address: EVM_TO, amount: "1.000000" },
          })
        ).json.id,
      );
    const page = (await api("GET", "/v1/payouts?limit=2", { key: m.sandboxKey })).json;
    expect(page.data.map((p: { id: string }) => p.id)).toEqual([ids[2], ids[1]]);
    expect(page.has_more).toBe(true);
    const rest = (await api("GET", `/v1/payouts?limit=2&starting_after=${ids[1]}`, { key: m.sandboxKey })).json;
    expect(rest).toMatchObject({ has_more: false });
    expect(rest.data.map((p: { id: string }) => p.id)).toEqual([ids[0]]);
    expect((await api("GET", "/v1/payouts?status=pending", { key: m.sandboxKey })).json.data).toHaveLength(3);
    expect((await api("GET", "/v1/payouts?status=confirmed", { key: m.sandboxKey })).json.data).toHaveLength(0);
    const bad = expectError(
      await api("GET", "/v1/payouts?status=done", { key: m.sandboxKey }),
      "invalid_request_error",
      400,
      "status",
    );
    expect(bad.message).toMatch(/review_required/);
    const one = await api("GET", `/v1/payouts/${ids[0]}`, { key: m.sandboxKey });
    expect(one.json.id).toBe(ids[0]);
    expectError(await api("GET", `/v1/payouts/${ids[0]}`, { key: other.sandboxKey }), "not_found", 404, "id");
    expectError(await api("GET", `/v1/payouts/${ids[0]}`, { key: m.liveKey }), "not_found", 404, "id");
    expect((await api("GET", "/v1/payouts", { key: other.sandboxKey })).json.data).toEqual([]);
  });

  it("payout endpoints have their own 10/min window", async () => {
    const m = await newMerchant();
    for (let i = 0; i < 10; i++) expect((await api("GET", "/v1/payouts", { key: m.sandboxKey })).status).toBe(200);
    expectError(await api("GET", "/v1/payouts", { key: m.sandboxKey }), "rate_limit_exceeded", 429);
    expect((await api("GET", "/v1/payments", { key: m.sandboxKey })).status).toBe(200);
  });
});

describe("ledger", () => {
  it("the consistency check catches a balance that disagrees with the journal", async () => {
    const m = await newMerchant();
    await fund(m.id, "eth", 7);
    expect(await checkLedgerConsistency(getDb(), m.id)).toEqual([]);
    const { query } = await import("@/lib/platform/db/query");
    await query(getDb(), "update balances set available_units = available_units + 1 where merchant_id = $1", [m.id]);
    const problems = await checkLedgerConsistency(getDb(), m.id);
    expect(problems).toHaveLength(1);
    expect(problems[0]!.kind).toBe("balance_mismatch");
  });

  it("refuses unbalanced journals", async () => {
    const { postJournal } = await import("@/lib/books/ledger/post-journal");
    const m = await newMerchant();
    await expect(
      postJournal(getDb(), {
        merchantId: m.id,
        mode: "sandbox",
        chain: "eth",
        cause: { type: "adjustment", id: "x" },
        entries: [
          { account: "available", amount: 5n },
          { account: "adjustments", amount: -4n },
        ],
      }),
    ).rejects.toThrow(/summing to zero/);
  });
});
