import { randomBytes } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/lib/platform/db/client";
import { query } from "@/lib/platform/db/query";
import { api, expectError, newKey, newMerchant, type TestMerchant } from "../helpers/api";
import { creditedPayment, PAYER } from "../helpers/credited-payment";

// GET /v1/search (docs/API.md#search): a merchant finds a payment, payout or refund by what a customer or the shop
// knows of it, and nothing of another merchant or mode.
let m: TestMerchant;
const made: Record<string, string> = {};
let depositAddress: string;
let depositTx: string;
const RECIPIENT = `0x${randomBytes(20).toString("hex")}`;

const found = async (q: string, key = m.sandboxKey): Promise<string[]> => {
  const reply = await api("GET", `/v1/search?query=${encodeURIComponent(q)}`, { key });
  expect(reply.status, reply.text).toBe(200);
  expect(reply.json.object).toBe("list");
  return reply.json.data.map((o: { id: string }) => o.id);
};

beforeAll(async () => {
  let other: TestMerchant;
  [m, other] = await Promise.all([newMerchant("Search"), newMerchant("Search, someone else")]);
  made.paid = await creditedPayment(m, ["5.000000"]);
  [{ tx_hash: depositTx }] = (await query<{ tx_hash: string }>(
    getDb(),
    "select tx_hash from deposits where payment_id = $1",
    [made.paid],
  )) as [{ tx_hash: string }];
  const refund = await api("POST", "/v1/refunds", {
    key: m.sandboxKey,
    body: { payment: made.paid, amount: "1.000000", destination: "address", to_address: RECIPIENT },
  });
  expect(refund.status, refund.text).toBe(200);
  made.refund = refund.json.id;
  const shop = await api("POST", "/v1/payments", {
    key: m.sandboxKey,
    body: { amount: "12.340000", chain: "eth", description: "Blue widget", metadata: { order_id: "SHOP-1001" } },
  });
  expect(shop.status, shop.text).toBe(200);
  made.shop = shop.json.id;
  depositAddress = shop.json.deposit_address;
  const payout = await api("POST", "/v1/payouts", {
    key: (await newKey(m.id, "sandbox")).secret,
    body: { chain: "eth", to_address: RECIPIENT, amount: "0.500000", metadata: { batch: "SHOP-1001" } },
  });
  expect(payout.status, payout.text).toBe(200);
  made.payout = payout.json.id;
  // Another merchant's look-alike is never found.
  const theirs = await api("POST", "/v1/payments", {
    key: other.sandboxKey,
    body: { amount: "12.340000", chain: "eth", description: "Blue widget", metadata: { order_id: "SHOP-1001" } },
  });
  expect(theirs.status, theirs.text).toBe(200);
});

describe("GET /v1/search", () => {
  it("finds by metadata value, newest first, as full objects of each kind", async () => {
    const reply = await api("GET", "/v1/search?query=SHOP-1001", { key: m.sandboxKey });
    expect(reply.json.data.map((o: { object: string; id: string }) => [o.object, o.id])).toEqual([
      ["payout", made.payout],
      ["payment", made.shop],
    ]);
    // Full objects: the payment as GET /v1/payments/{id} gives it.
    const one = await api("GET", `/v1/payments/${made.shop}`, { key: m.sandboxKey });
    expect(reply.json.data[1]).toEqual(one.json);
    expect(reply.json.has_more).toBe(false);
    expect(await found("metadata[order_id]:SHOP-1001")).toEqual([made.shop]);
    expect(await found("metadata:SHOP-1001 type:payout")).toEqual([made.payout]);
  });

  it("finds by address (deposit, payer, recipient) and transaction hash, hex in any case", async () => {
    expect(await found(depositAddress)).toEqual([made.shop]);
    expect(await found(depositAddress.toLowerCase())).toEqual([made.shop]);
    expect(await found(`address:${PAYER.toUpperCase().replace("0X", "0x")}`)).toEqual([made.paid]);
    expect(await found(RECIPIENT.toUpperCase().replace("0X", "0x"))).toEqual([made.payout, made.refund]);
    expect(await found(`tx:${depositTx.toUpperCase().replace("0X", "0x")}`)).toEqual([made.paid]);
    expect(await found(`address:${depositTx}`)).toEqual([]);
  });

  it("finds by id (a payment's refunds with it), exact amount and description", async () => {
    expect(await found(made.paid!)).toEqual([made.refund, made.paid]);
    expect(await found(`type:payment ${made.paid}`)).toEqual([made.paid]);
    expect(await found("12.34")).toEqual([made.shop]);
    expect(await found("amount:12.340000")).toEqual([made.shop]);
    expect(await found("amount:0.5 SHOP-1001")).toEqual([made.payout]);
    expect(await found("widget")).toEqual([made.shop]);
    expect(await found('description:"blue WIDGET"')).toEqual([made.shop]);
    expect(await found("description:widget amount:5")).toEqual([]);
    expect(await found("nothing-like-this")).toEqual([]);
  });

  it("keeps to the key's merchant, mode and scopes; limit and has_more", async () => {
    expect(await found("SHOP-1001", m.liveKey)).toEqual([]);
    const paymentsOnly = (await newKey(m.id, "sandbox", ["payments:read"])).secret;
    expect(await found("SHOP-1001", paymentsOnly)).toEqual([made.shop]);
    expectError(await api("GET", "/v1/search?query=type:payout%20SHOP-1001", { key: paymentsOnly }), "forbidden", 403);
    const payoutsOnly = (await newKey(m.id, "sandbox", ["payouts:read"])).secret;
    expectError(await api("GET", "/v1/search?query=SHOP-1001", { key: payoutsOnly }), "forbidden", 403);
    const first = await api("GET", "/v1/search?query=SHOP-1001&limit=1", { key: m.sandboxKey });
    expect([first.json.data.map((o: { id: string }) => o.id), first.json.has_more]).toEqual([[made.payout], true]);
  });

  it("refuses a malformed query with param query", async () => {
    const refused = async (q: string | null) =>
      expectError(
        await api("GET", q === null ? "/v1/search" : `/v1/search?query=${encodeURIComponent(q)}`, {
          key: m.sandboxKey,
        }),
        "invalid_request_error",
        400,
        "query",
      );
    await refused(null);
    await refused("");
    await refused("   ");
    await refused("colour:blue");
    await refused("type:invoice");
    await refused('description:"unclosed');
    await refused("amount[x]:1");
    await refused(Array.from({ length: 11 }, (_, i) => `t${i}`).join(" "));
  });
});
