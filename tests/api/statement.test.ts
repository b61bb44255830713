import { randomBytes } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { adjustBalance } from "@/lib/books/ledger/adjust-balance";
import { checkLedgerConsistency } from "@/lib/books/ledger/check-ledger-consistency";
import { getDb } from "@/lib/platform/db/client";
import { execute } from "@/lib/platform/db/query";
import { api, expectError, newKey, newMerchant, type TestMerchant } from "../helpers/api";
import { creditedPayment } from "../helpers/credited-payment";

// GET /v1/reports/statement (docs/API.md#statements): a period's opening balance, totals by type and closing
// balance per chain, from the ledger, agreeing with the balance transactions and the balances to the unit.
let m: TestMerchant;
const made: Record<string, string> = {};
const NOVEMBER = "from=2026-11-01&to=2026-12-01";
const units = (amount: string) => BigInt(amount.replace(".", ""));

/** Books a cause's ledger entries (and a payout's row) at a moment, as a month's history would have them. */
async function bookedAt(causeId: string, at: string) {
  await execute(getDb(), "update ledger_entries set created_at = $2 where merchant_id = $3 and cause_id like $1", [
    `${causeId}%`,
    at,
    m.id,
  ]);
}

const statement = async (query: string, key = m.sandboxKey) => {
  const reply = await api("GET", `/v1/reports/statement?${query}`, { key });
  expect(reply.status, reply.text).toBe(200);
  return reply.json;
};

beforeAll(async () => {
  m = await newMerchant("Statements");
  made.payment = await creditedPayment(m, ["5.000000"]);
  await bookedAt(made.payment, "2026-10-20T10:00:00Z");
  const adjust = (chain: "eth" | "tron", amount: bigint, reason: string) =>
    adjustBalance(getDb(), { merchantId: m.id, mode: "sandbox", chain, amount, reason });
  made.bonus = await adjust("eth", 2_500_000n, "goodwill");
  await bookedAt(made.bonus, "2026-11-03T08:00:00Z");
  const refund = await api("POST", "/v1/refunds", {
    key: m.sandboxKey,
    body: { payment: made.payment, amount: "1.000000" },
  });
  expect(refund.status, refund.text).toBe(200);
  made.refund = refund.json.id;
  expect((await api("POST", `/v1/refunds/${made.refund}/cancel`, { key: m.sandboxKey, body: {} })).status).toBe(200);
  await bookedAt(made.refund!, "2026-11-10T12:00:00Z");
  const payout = await api("POST", "/v1/payouts", {
    key: (await newKey(m.id, "sandbox")).secret,
    body: { chain: "eth", to_address: `0x${randomBytes(20).toString("hex")}`, amount: "0.500000" },
  });
  expect(payout.status, payout.text).toBe(200);
  made.payout = payout.json.id;
  await bookedAt(made.payout!, "2026-11-20T09:30:00Z");
  await execute(getDb(), "update payouts set created_at = $2 where id = $1", [made.payout, "2026-11-20T09:30:00Z"]);
  made.tron = await adjust("tron", 1_000_000n, "opening balance"); // booked now: after November
});

describe("GET /v1/reports/statement", () => {
  it("a month on one chain: opening, totals by type, closing, the month's payouts and their transactions", async () => {
    const s = await statement(`chain=eth&${NOVEMBER}`);
    expect(s).toMatchObject({ object: "statement", from: "2026-11-01T00:00:00.000Z", to: "2026-12-01T00:00:00.000Z" });
    expect(s.chains).toHaveLength(1);
    const [eth] = s.chains;
    expect(eth).toMatchObject({
      chain: "eth",
      opening_balance: "5.000000",
      closing_balance: "7.000000",
      totals: {
        payment: "0.000000",
        payment_reversal: "0.000000",
        payout: "-0.500000",
        payout_return: "0.000000",
        refund: "-1.000000",
        refund_return: "1.000000",
        adjustment: "2.500000",
      },
      transactions: 4,
      fees: "0.000000",
      network_costs: { symbol: "ETH", payments: { count: 0, total: "0" }, total: "0" },
      has_more_payouts: false,
    });
    expect(eth.payouts.map((p: { id: string; amount: string }) => [p.id, p.amount])).toEqual([
      [made.payout, "0.500000"],
    ]);
    expect(
      eth.payouts[0].balance_transactions.map((t: { type: string; amount: string }) => [t.type, t.amount]),
    ).toEqual([["payout", "-0.500000"]]);
    // The totals are the month's balance transactions summed by type.
    const listed = await api(
      "GET",
      `/v1/balance_transactions?chain=eth&created[gte]=2026-11-01&created[lt]=2026-12-01`,
      {
        key: m.sandboxKey,
      },
    );
    const byType: Record<string, bigint> = {};
    for (const t of listed.json.data as { type: string; net: string }[])
      byType[t.type] = (byType[t.type] ?? 0n) + units(t.net);
    for (const [type, total] of Object.entries(eth.totals as Record<string, string>))
      expect([type, units(total)]).toEqual([type, byType[type] ?? 0n]);
    // October closed where November opened.
    const october = await statement("chain=eth&from=2026-10-01&to=2026-11-01");
    expect(october.chains[0]).toMatchObject({
      opening_balance: "0.000000",
      closing_balance: "5.000000",
      transactions: 1,
    });
    expect(october.chains[0].totals.payment).toBe("5.000000");
  });

  it("every enabled chain without `chain`; a period ending now closes at the balances, to the unit", async () => {
    const s = await statement(`from=2026-01-01&to=${encodeURIComponent(new Date(Date.now() + 60_000).toISOString())}`);
    const balances = await api("GET", "/v1/balances", { key: m.sandboxKey });
    expect(s.chains.map((c: { chain: string }) => c.chain)).toEqual(
      balances.json.data.map((b: { chain: string }) => b.chain),
    );
    for (const [i, b] of (balances.json.data as { chain: string; available: string }[]).entries())
      expect([b.chain, s.chains[i].closing_balance]).toEqual([b.chain, b.available]);
    expect(s.chains.find((c: { chain: string }) => c.chain === "tron").totals.adjustment).toBe("1.000000");
    const november = await statement(NOVEMBER);
    expect(november.chains.find((c: { chain: string }) => c.chain === "tron")).toMatchObject({
      opening_balance: "0.000000",
      closing_balance: "0.000000",
      transactions: 0,
      payouts: [],
    });
    expect(await checkLedgerConsistency(getDb(), m.id)).toEqual([]);
  });

  it("refuses a bad period with the parameter named, and a key that may not read payouts", async () => {
    const refused = async (query: string, param: string) =>
      expectError(
        await api("GET", `/v1/reports/statement?${query}`, { key: m.sandboxKey }),
        "invalid_request_error",
        400,
        param,
      );
    await refused("to=2026-12-01", "from");
    await refused("from=2026-12-01&to=2026-11-01", "to");
    await refused("from=2026-12-01&to=2026-12-01", "to");
    await refused("from=2026-11-31&to=2026-12-01", "from");
    await refused(`chain=btc&${NOVEMBER}`, "chain");
    const balancesOnly = await newKey(m.id, "sandbox", ["balances:read"]);
    expectError(await api("GET", `/v1/reports/statement?${NOVEMBER}`, { key: balancesOnly.secret }), "forbidden", 403);
    // Another merchant's statement holds none of this one's money.
    const other = await newMerchant("Statements, someone else");
    const theirs = await statement(`chain=eth&${NOVEMBER}`, other.sandboxKey);
    expect(theirs.chains[0]).toMatchObject({ opening_balance: "0.000000", closing_balance: "0.000000", payouts: [] });
  });
});
