import { randomBytes } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/lib/platform/db/client";
import { execute } from "@/lib/platform/db/query";
import { api, expectError, newKey, newMerchant, type TestMerchant } from "../helpers/api";
import { creditedPayment } from "../helpers/credited-payment";

// The lists' filters (docs/API.md#filters): each returns exactly the merchant's matching objects, in this mode,
// newest first, combinable, kept across pages; a bad value is a 400 naming the parameter as written.
const NOV_1 = "2026-11-01T00:00:00Z";
const NOV_15_NOON = "2026-11-15T12:00:00Z";
const unix = (iso: string) => String(Date.parse(iso) / 1000);

let m: TestMerchant;
let other: TestMerchant;
const ids: Record<string, string> = {};

async function payment(key: string, body: Record<string, unknown>): Promise<string> {
  const created = await api("POST", "/v1/payments", { key, body: { amount: "1.000000", ...body } });
  expect(created.status, created.text).toBe(200);
  return created.json.id as string;
}

const listed = async (path: string, key = m.sandboxKey): Promise<string[]> => {
  const reply = await api("GET", path, { key });
  expect(reply.status, reply.text).toBe(200);
  return reply.json.data.map((o: { id: string }) => o.id);
};

beforeAll(async () => {
  [m, other] = await Promise.all([newMerchant("Filters"), newMerchant("Filters, someone else")]);
  ids.novFirst = await payment(m.sandboxKey, { chain: "eth", metadata: { order: "A-1" } });
  ids.novMid = await payment(m.sandboxKey, { chain: "tron", metadata: { order: "A-2" } });
  ids.qty = await payment(m.sandboxKey, { chain: "eth", metadata: { qty: 3, gift: true } });
  ids.tron = await payment(m.sandboxKey, { chain: "tron", metadata: { qty: "3" } });
  ids.unchosen = await payment(m.sandboxKey, {});
  ids.stranger = await payment(other.sandboxKey, { chain: "eth", metadata: { order: "A-1" } });
  // Two of them made in November (created_at is the service's; set here as a month's history would have it).
  await execute(getDb(), "update payments set created_at = $2 where id = $1", [ids.novFirst, NOV_1]);
  await execute(getDb(), "update payments set created_at = $2 where id = $1", [ids.novMid, NOV_15_NOON]);
});

describe("GET /v1/payments filters", () => {
  it("by chain, status and metadata: exactly the merchant's matching payments, newest first", async () => {
    expect(await listed("/v1/payments?chain=tron")).toEqual([ids.tron, ids.novMid]);
    expect(await listed("/v1/payments?chain=eth&status=awaiting_payment")).toEqual([ids.qty, ids.novFirst]);
    expect(await listed("/v1/payments?status=confirmed")).toEqual([]);
    // Another merchant's payment with the same metadata is never found.
    expect(await listed("/v1/payments?metadata[order]=A-1")).toEqual([ids.novFirst]);
    expect(await listed("/v1/payments?metadata[order]=A-1", other.sandboxKey)).toEqual([ids.stranger]);
    // Compared as written: the number 3 and the string "3" both read "3"; a boolean reads "true".
    expect(await listed("/v1/payments?metadata[qty]=3")).toEqual([ids.tron, ids.qty]);
    expect(await listed("/v1/payments?metadata[qty]=3&metadata[gift]=true")).toEqual([ids.qty]);
    expect(await listed("/v1/payments?metadata[qty]=3&chain=eth")).toEqual([ids.qty]);
    expect(await listed("/v1/payments?metadata[order]=a-1")).toEqual([]);
    // Percent-encoded brackets are the same parameter.
    expect(await listed("/v1/payments?metadata%5Border%5D=A-2")).toEqual([ids.novMid]);
  });

  it("by created: ISO 8601 with an offset, a bare date (UTC) or Unix seconds, bounds exclusive or not", async () => {
    expect(await listed(`/v1/payments?created[gte]=${NOV_1}&created[lt]=2026-12-01`)).toEqual([
      ids.novMid,
      ids.novFirst,
    ]);
    expect(await listed(`/v1/payments?created[gt]=${unix(NOV_1)}&created[lt]=2026-12-01`)).toEqual([ids.novMid]);
    expect(await listed(`/v1/payments?created[lte]=${unix(NOV_15_NOON)}`)).toEqual([ids.novMid, ids.novFirst]);
    expect(await listed(`/v1/payments?created[lt]=${unix(NOV_15_NOON)}`)).toEqual([ids.novFirst]);
    // 21:00 on the 15th in Tokyo is 12:00 UTC.
    expect(await listed("/v1/payments?created[gte]=2026-11-15T21:00:00%2B09:00&created[lt]=2026-11-16")).toEqual([
      ids.novMid,
    ]);
    const recent = await listed(`/v1/payments?created[gte]=2026-11-16`);
    expect(recent).toEqual([ids.unchosen, ids.tron, ids.qty]);
  });

  it("keeps its filters across pages", async () => {
    const first = await api("GET", "/v1/payments?metadata[qty]=3&limit=1", { key: m.sandboxKey });
    expect(first.json).toMatchObject({ has_more: true, data: [{ id: ids.tron }] });
    const second = await api("GET", `/v1/payments?metadata[qty]=3&limit=1&starting_after=${ids.tron}`, {
      key: m.sandboxKey,
    });
    expect(second.json).toMatchObject({ has_more: false, data: [{ id: ids.qty }] });
    // A cursor that does not match the filter is refused, as one of another merchant's is.
    const outside = await api("GET", `/v1/payments?chain=tron&starting_after=${ids.qty}`, { key: m.sandboxKey });
    expectError(outside, "invalid_request_error", 400, "starting_after");
  });

  it("refuses bad filters with a 400 naming the parameter as written, never a 500", async () => {
    const refused = async (query: string, param: string, message?: RegExp) => {
      const reply = await api("GET", `/v1/payments?${query}`, { key: m.sandboxKey });
      const error = expectError(reply, "invalid_request_error", 400, param);
      if (message) expect(error.message).toMatch(message);
    };
    await refused("created[gte]=yesterday", "created[gte]", /Unix seconds or an ISO 8601 date-time/);
    await refused("created[lt]=2026-12-01T10:00:00", "created[lt]"); // no offset: whose 10:00?
    await refused("created[gte]=2026-02-30", "created[gte]"); // not a day (JavaScript would say March 2nd)
    await refused("created[gte]=2026-12-01T24:00:00Z", "created[gte]");
    await refused("created=1796169600", "created", /created\[gte\]/);
    await refused("created[after]=1", "created[after]", /Unknown parameter/);
    await refused("created[gte]=1&created[gte]=2", "created[gte]", /more than once/);
    await refused("metadata[]=x", "metadata[]");
    await refused(`metadata[${"k".repeat(41)}]=x`, `metadata[${"k".repeat(41)}]`, /keys are 1 to 40 characters/);
    await refused(`metadata[order]=${"v".repeat(501)}`, "metadata[order]");
    await refused("metadata=A-1", "metadata");
    await refused(Array.from({ length: 11 }, (_, i) => `metadata[k${i}]=v`).join("&"), "metadata", /at most 10/);
    await refused("chain=btc", "chain");
    await refused("status=paid", "status");
    await refused("order[id]=1", "order", /Unknown parameter/);
  });
});

describe("the other lists' filters", () => {
  let funded: TestMerchant;
  const made: Record<string, string> = {};
  beforeAll(async () => {
    funded = await newMerchant("Filters, money out");
    const paymentId = await creditedPayment(funded, ["10.000000"]);
    for (const ticket of ["T-1", "T-2"]) {
      const body = { payment: paymentId, amount: "1.000000", destination: "sender", metadata: { ticket } };
      const refund = await api("POST", "/v1/refunds", { key: funded.sandboxKey, body });
      expect(refund.status, refund.text).toBe(200);
      made[ticket] = refund.json.id;
    }
    const payoutKey = (await newKey(funded.id, "sandbox")).secret;
    for (const batch of ["B-1", "B-2"]) {
      const body = {
        chain: "eth",
        to_address: `0x${randomBytes(20).toString("hex")}`,
        amount: "1.000000",
        metadata: { batch },
      };
      const payout = await api("POST", "/v1/payouts", { key: payoutKey, body });
      expect(payout.status, payout.text).toBe(200);
      made[batch] = payout.json.id;
    }
  });

  it("refunds: by metadata, chain and created", async () => {
    const key = funded.sandboxKey;
    expect(await listed("/v1/refunds?metadata[ticket]=T-2", key)).toEqual([made["T-2"]]);
    expect(await listed("/v1/refunds?chain=eth", key)).toEqual([made["T-2"], made["T-1"]]);
    expect(await listed("/v1/refunds?chain=tron", key)).toEqual([]);
    expect(await listed("/v1/refunds?created[gte]=2099-01-01", key)).toEqual([]);
  });

  // (Not by status: a jobs worker another file of the suite starts may take these payouts on.)
  it("payouts: by metadata, chain and created, as the payouts' rate class allows", async () => {
    const key = (await newKey(funded.id, "sandbox")).secret;
    expect(await listed("/v1/payouts?metadata[batch]=B-1", key)).toEqual([made["B-1"]]);
    expect(await listed("/v1/payouts?chain=eth", key)).toEqual([made["B-2"], made["B-1"]]);
    expect(await listed("/v1/payouts?chain=solana", key)).toEqual([]);
    expect(await listed(`/v1/payouts?created[lt]=${NOV_1}`, key)).toEqual([]);
  });

  it("events: by created (and refuse a metadata filter, which events do not take)", async () => {
    const key = funded.sandboxKey;
    // One type, written before the test: a worker of another file may add other events meanwhile.
    const created = await listed("/v1/events?type=refund.created", key);
    expect(created).toHaveLength(2);
    expect(await listed("/v1/events?type=refund.created&created[gte]=2026-01-01", key)).toEqual(created);
    expect(await listed("/v1/events?type=refund.created&created[lt]=2026-01-01", key)).toEqual([]);
    const refused = await api("GET", "/v1/events?metadata[ticket]=T-1", { key });
    expectError(refused, "invalid_request_error", 400, "metadata");
  });
});
