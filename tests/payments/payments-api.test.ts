import { beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/lib/platform/db/client";
import { selectPaymentChain } from "@/lib/money-in/payments/select-payment-chain";
import { api, expectError, newMerchant, type TestMerchant } from "../helpers/api";

let m: TestMerchant;
beforeAll(async () => {
  m = await newMerchant();
});

const create = (body: unknown, key = m.sandboxKey) => api("POST", "/v1/payments", { key, body });

describe("POST /v1/payments", () => {
  it("creates a payment exactly as docs/API.md documents it", async () => {
    const reply = await create({
      amount: "25.000000",
      chain: "eth",
      description: "Order 1001",
      metadata: { order_id: "1001", qty: 2, gift: false },
      expires_in: 600,
    });
    expect(reply.status).toBe(200);
    const p = reply.json;
    expect(p).toMatchObject({
      object: "payment",
      status: "awaiting_payment",
      chain: "eth",
      amount: "25.000000",
      currency: "USDT",
      description: "Order 1001",
      metadata: { order_id: "1001", qty: 2, gift: false },
      tx_hash: null,
      confirmations: 0,
    });
    expect(p.id).toMatch(/^pay_[0-9A-Za-z]{24}$/);
    expect(p.deposit_address).toMatch(/^0x[0-9a-fA-F]{40}$/);
    expect(p.checkout_url).toMatch(new RegExp(`^http://localhost:\\d+/checkout/${p.id}$`));
    expect(Date.parse(p.expires_at) - Date.parse(p.created_at)).toBe(600_000);
    expect(p).not.toHaveProperty("confirmed_at");
  });

  it("defaults: 1800 s TTL, empty metadata, no description", async () => {
    const p = (await create({ amount: "1.000000", chain: "polygon" })).json;
    expect(Date.parse(p.expires_at) - Date.parse(p.created_at)).toBe(1_800_000);
    expect(p.metadata).toEqual({});
    expect(p).not.toHaveProperty("description");
  });

  it("allocates a distinct, well-formed single-use address per payment on every chain", async () => {
    const shapes: Record<string, RegExp> = {
      eth: /^0x[0-9a-fA-F]{40}$/,
      bnb: /^0x[0-9a-fA-F]{40}$/,
      polygon: /^0x[0-9a-fA-F]{40}$/,
      tron: /^T[1-9A-HJ-NP-Za-km-z]{33}$/,
      solana: /^[1-9A-HJ-NP-Za-km-z]{32,44}$/,
    };
    const seen = new Set<string>();
    for (const chain of Object.keys(shapes)) {
      const replies = await Promise.all([create({ amount: "2.000000", chain }), create({ amount: "2.000000", chain })]);
      for (const r of replies) {
        expect(r.json.deposit_address).toMatch(shapes[chain]!);
        expect(seen.has(r.json.deposit_address)).toBe(false);
        seen.add(r.json.deposit_address);
      }
    }
  });

  it("a chain-agnostic intent has null chain and address until the payer picks, then it is fixed", async () => {
    const p = (await create({ amount: "3.000000" })).json;
    expect(p).toMatchObject({ status: "awaiting_payment", chain: null, deposit_address: null });
    const picked = await Promise.all([
      selectPaymentChain(getDb(), p.id, "tron"),
      selectPaymentChain(getDb(), p.id, "tron"),
    ]);
    expect(picked[0].depositAddress).toBe(picked[1].depositAddress);
    const after = (await api("GET", `/v1/payments/${p.id}`, { key: m.sandboxKey })).json;
    expect(after).toMatchObject({ chain: "tron", deposit_address: picked[0].depositAddress });
    await expect(selectPaymentChain(getDb(), p.id, "eth")).rejects.toMatchObject({
      type: "invalid_request_error",
      param: "chain",
    });
  });

  it.each([
    [{ amount: 25 }, "amount", /exactly 6 decimals/],
    [{ amount: "25" }, "amount", /exactly 6 decimals/],
    [{ amount: "25.5" }, "amount", /exactly 6 decimals/],
    [{ amount: "-1.000000" }, "amount", /exactly 6 decimals/],
    [{ amount: "1e3" }, "amount", /exactly 6 decimals/],
    [{ amount: "0.000000" }, "amount", /greater than 0/],
    [{}, "amount", /Missing required parameter/],
    [{ amount: "1.000000", chain: "btc" }, "chain", /eth, bnb, polygon, tron, solana/],
    [{ amount: "1.000000", expires_in: 59 }, "expires_in", /at least 60/],
    [{ amount: "1.000000", expires_in: 86401 }, "expires_in", /at most 86400/],
    [{ amount: "1.000000", expires_in: 90.5 }, "expires_in", /whole number/],
    [{ amount: "1.000000", expires_in: "600" }, "expires_in", /number of seconds/],
    [{ amount: "1.000000", description: "d".repeat(501) }, "description", /at most 500/],
    [{ amount: "1.000000", metadata: [] }, "metadata", /object/],
    [{ amount: "1.000000", metadata: { nested: { a: 1 } } }, "metadata.nested", /strings, numbers or booleans/],
    [{ amount: "1.000000", metadata: { k: "v".repeat(501) } }, "metadata.k", /at most 500/],
    [
      { amount: "1.000000", metadata: Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`k${i}`, "v"])) },
      "metadata",
      /at most 50 keys/,
    ],
    [{ amount: "1.000000", metadata: { ["k".repeat(41)]: "v" } }, `metadata.${"k".repeat(41)}`, /1 to 40 characters/],
    [{ amount: "1.000000", colour: "red" }, "colour", /Unknown parameter/],
  ])("%j → 400 on %s", async (body, param, message) => {
    const err = expectError(await create(body), "invalid_request_error", 400, param);
    expect(err.message).toMatch(message);
  });

  it("a live key naming a chain with no live RPC configured gets chain_disabled", async () => {
    const err = expectError(
      await create({ amount: "1.000000", chain: "eth" }, m.liveKey),
      "chain_disabled",
      400,
      "chain",
    );
    expect(err.message).toMatch(/not enabled for live keys/);
  });

  it("is idempotent", async () => {
    const headers = { "idempotency-key": `pay-${Date.now()}` };
    const a = await api("POST", "/v1/payments", {
      key: m.sandboxKey,
      body: { amount: "4.000000", chain: "bnb" },
      headers,
    });
    const b = await api("POST", "/v1/payments", {
      key: m.sandboxKey,
      body: { amount: "4.000000", chain: "bnb" },
      headers,
      server: 1,
    });
    expect(b.text).toBe(a.text);
    expectError(
      await api("POST", "/v1/payments", { key: m.sandboxKey, body: { amount: "5.000000", chain: "bnb" }, headers }),
      "idempotency_conflict",
      409,
      "Idempotency-Key",
    );
  });
});

describe("GET /v1/payments/:id and isolation", () => {
  it("returns the payment to its owner only", async () => {
    const other = await newMerchant("Other");
    const p = (await create({ amount: "6.000000", chain: "solana" })).json;
    const own = await api("GET", `/v1/payments/${p.id}`, { key: m.sandboxKey });
    expect(own.json).toEqual(p);
    for (const key of [m.liveKey, other.sandboxKey, other.liveKey])
      expectError(await api("GET", `/v1/payments/${p.id}`, { key }), "not_found", 404, "id");
  });
});

describe("GET /v1/payments", () => {
  it("pages newest first with exact has_more, nothing lost or repeated while new payments arrive", async () => {
    const owner = await newMerchant("Pager");
    const created: string[] = [];
    for (let i = 0; i < 7; i++)
      created.push((await create({ amount: `${i + 1}.000000`, chain: "eth" }, owner.sandboxKey)).json.id);
    const newestFirst = [...created].reverse();

    const page1 = (await api("GET", "/v1/payments?limit=3", { key: owner.sandboxKey })).json;
    expect(page1.object).toBe("list");
    expect(page1.has_more).toBe(true);
    expect(page1.data.map((p: { id: string }) => p.id)).toEqual(newestFirst.slice(0, 3));
    expect(Object.keys(page1.data[0]).sort()).toEqual([
      "amount",
      "chain",
      "created_at",
      "currency",
      "id",
      "object",
      "status",
    ]);

    await create({ amount: "99.000000", chain: "eth" }, owner.sandboxKey); // arrives between pages
    const page2 = (
      await api("GET", `/v1/payments?limit=3&starting_after=${page1.data[2].id}`, { key: owner.sandboxKey })
    ).json;
    expect(page2.data.map((p: { id: string }) => p.id)).toEqual(newestFirst.slice(3, 6));
    expect(page2.has_more).toBe(true);
    const page3 = (
      await api("GET", `/v1/payments?limit=3&starting_after=${page2.data[2].id}`, { key: owner.sandboxKey })
    ).json;
    expect(page3.data.map((p: { id: string }) => p.id)).toEqual(newestFirst.slice(6));
    expect(page3.has_more).toBe(false);

    const all = (await api("GET", "/v1/payments?limit=100", { key: owner.sandboxKey })).json;
    expect(all.data).toHaveLength(8);
    expect(all.has_more).toBe(false);
    expect((await api("GET", "/v1/payments", { key: owner.sandboxKey })).json.data).toHaveLength(8);
  });

  it.each(["0", "101", "abc", "1.5", "-1"])("limit=%s → 400 param limit", async (limit) => {
    const err = expectError(
      await api("GET", `/v1/payments?limit=${limit}`, { key: m.sandboxKey }),
      "invalid_request_error",
      400,
      "limit",
    );
    expect(err.message).toMatch(/1 to 100/);
  });

  it("starting_after that is not one of yours → 400 param starting_after", async () => {
    const other = await newMerchant("Stranger");
    const theirs = (await create({ amount: "1.000000", chain: "eth" }, other.sandboxKey)).json.id;
    for (const cursor of [theirs, "pay_unknown"]) {
      const err = expectError(
        await api("GET", `/v1/payments?starting_after=${cursor}`, { key: m.sandboxKey }),
        "invalid_request_error",
        400,
        "starting_after",
      );
      expect(err.message).toContain(cursor);
    }
  });

  it("sandbox and live lists are separate", async () => {
    const owner = await newMerchant("Modes");
    await create({ amount: "1.000000", chain: "eth" }, owner.sandboxKey);
    expect((await api("GET", "/v1/payments", { key: owner.liveKey })).json).toEqual({
      object: "list",
      data: [],
      has_more: false,
    });
  });
});
