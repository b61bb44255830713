import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { beforeAll, describe, expect, it } from "vitest";
import { adjustBalance } from "@/lib/books/ledger/adjust-balance";
import { checkLedgerConsistency } from "@/lib/books/ledger/check-ledger-consistency";
import { getDb, inTransaction } from "@/lib/platform/db/client";
import { execute } from "@/lib/platform/db/query";
import { api, expectError, newKey, newMerchant, type TestMerchant } from "../helpers/api";
import { creditedPayment } from "../helpers/credited-payment";

// GET /v1/balance_transactions (docs/API.md#balance-transactions): every movement of `available`, from the ledger,
// with the running balance each left behind; nothing of another merchant.
interface Txn {
  id: string;
  type: string;
  amount: string;
  fee: string;
  net: string;
  chain: string;
  source: string;
  available_after: string;
}

let m: TestMerchant;
let other: TestMerchant;
const made: Record<string, string> = {};

const list = async (path: string, key = m.sandboxKey): Promise<Txn[]> => {
  const reply = await api("GET", path, { key });
  expect(reply.status, reply.text).toBe(200);
  expect(reply.json.object).toBe("list");
  return reply.json.data;
};
const brief = (t: Txn) => [t.type, t.chain, t.amount, t.source, t.available_after];
const units = (amount: string) => BigInt(amount.replace(".", ""));

beforeAll(async () => {
  [m, other] = await Promise.all([newMerchant("Balance transactions"), newMerchant("Balance txns, someone else")]);
  made.payment = await creditedPayment(m, ["5.000000"]);
  made.bonus = await adjustBalance(getDb(), {
    merchantId: m.id,
    mode: "sandbox",
    chain: "eth",
    amount: 2_500_000n,
    reason: "goodwill",
  });
  made.tron = await adjustBalance(getDb(), {
    merchantId: m.id,
    mode: "sandbox",
    chain: "tron",
    amount: 1_000_000n,
    reason: "opening balance",
  });
  const refund = await api("POST", "/v1/refunds", {
    key: m.sandboxKey,
    body: { payment: made.payment, amount: "1.000000" }, // a claim link: it waits for the payer
  });
  expect(refund.status, refund.text).toBe(200);
  made.refund = refund.json.id;
  const canceled = await api("POST", `/v1/refunds/${made.refund}/cancel`, { key: m.sandboxKey, body: {} });
  expect(canceled.status, canceled.text).toBe(200);
  const payout = await api("POST", "/v1/payouts", {
    key: (await newKey(m.id, "sandbox")).secret,
    body: { chain: "eth", to_address: `0x${randomBytes(20).toString("hex")}`, amount: "0.500000" },
  });
  expect(payout.status, payout.text).toBe(200);
  made.payout = payout.json.id;
  await creditedPayment(other, ["3.000000"]);
});

describe("GET /v1/balance_transactions", () => {
  it("lists every movement of available, newest first, each with the balance it left on its chain", async () => {
    const all = await list("/v1/balance_transactions");
    expect(all.map(brief)).toEqual([
      ["payout", "eth", "-0.500000", made.payout, "7.000000"],
      ["refund_return", "eth", "1.000000", made.refund, "7.500000"],
      ["refund", "eth", "-1.000000", made.refund, "6.500000"],
      ["adjustment", "tron", "1.000000", made.tron, "1.000000"],
      ["adjustment", "eth", "2.500000", made.bonus, "7.500000"],
      ["payment", "eth", "5.000000", made.payment, "5.000000"],
    ]);
    for (const t of all) {
      expect(t).toMatchObject({ object: "balance_transaction", fee: "0.000000", net: t.amount });
      expect(t.id).toMatch(/^txn_[0-9a-f]{32}$/);
    }
    // The newest of each chain left what GET /v1/balances says is available now.
    const balances = await api("GET", "/v1/balances", { key: m.sandboxKey });
    const available = Object.fromEntries(
      balances.json.data.map((b: { chain: string; available: string }) => [b.chain, b.available]),
    );
    expect([available.eth, available.tron]).toEqual([all[0]!.available_after, all[3]!.available_after]);
    // A range's net is the change of available over it, to the unit (here: refund → payout on eth).
    const eth = all.filter((t) => t.chain === "eth");
    const range = eth.slice(0, 3);
    const net = range.reduce((sum, t) => sum + units(t.net), 0n);
    expect(net).toBe(units(range[0]!.available_after) - units(eth[3]!.available_after));
    expect(await list("/v1/balance_transactions", other.sandboxKey)).toHaveLength(1);
  });

  it("narrows by type, chain, source and created; pages keep the filter", async () => {
    const types = async (query: string) => (await list(`/v1/balance_transactions?${query}`)).map((t) => t.type);
    expect(await types("type=adjustment")).toEqual(["adjustment", "adjustment"]);
    expect(await types("chain=tron")).toEqual(["adjustment"]);
    expect(await types(`source=${made.refund}`)).toEqual(["refund_return", "refund"]);
    expect(await types(`source=${made.payment}`)).toEqual(["payment"]);
    expect(await types(`source=${made.payment}&type=refund`)).toEqual([]);
    expect(await types("type=adjustment&chain=eth")).toEqual(["adjustment"]);
    expect(await types("created[gte]=2099-01-01")).toEqual([]);
    expect(await types("created[gte]=2026-01-01&chain=tron")).toEqual(["adjustment"]);

    const first = await api("GET", "/v1/balance_transactions?chain=eth&limit=2", { key: m.sandboxKey });
    expect(first.json.has_more).toBe(true);
    expect(first.json.data.map((t: Txn) => t.type)).toEqual(["payout", "refund_return"]);
    const next = await list(`/v1/balance_transactions?chain=eth&limit=2&starting_after=${first.json.data[1].id}`);
    expect(next.map((t) => t.type)).toEqual(["refund", "adjustment"]);
    const last = await api("GET", `/v1/balance_transactions?chain=eth&starting_after=${next[1]!.id}`, {
      key: m.sandboxKey,
    });
    expect([last.json.data.map((t: Txn) => t.type), last.json.has_more]).toEqual([["payment"], false]);
  });

  it("retrieves one of the merchant's own; another merchant's or a made-up id is not found", async () => {
    const [newest] = await list("/v1/balance_transactions?limit=1");
    const one = await api("GET", `/v1/balance_transactions/${newest!.id}`, { key: m.sandboxKey });
    expect(one.status, one.text).toBe(200);
    expect(one.json).toEqual(newest);
    expectError(
      await api("GET", `/v1/balance_transactions/${newest!.id}`, { key: other.sandboxKey }),
      "not_found",
      404,
    );
    expectError(await api("GET", "/v1/balance_transactions/txn_nope", { key: m.sandboxKey }), "not_found", 404);
    // Live mode has none of the sandbox's.
    expect(await list("/v1/balance_transactions", m.liveKey)).toEqual([]);
  });

  it("refuses a bad filter or a foreign cursor with the parameter named", async () => {
    const refused = async (query: string, param: string) =>
      expectError(
        await api("GET", `/v1/balance_transactions?${query}`, { key: m.sandboxKey }),
        "invalid_request_error",
        400,
        param,
      );
    const [theirs] = await list("/v1/balance_transactions", other.sandboxKey);
    await refused("type=fee", "type");
    await refused("chain=btc", "chain");
    await refused("created[gte]=yesterday", "created[gte]");
    await refused(`starting_after=${theirs!.id}`, "starting_after");
    await refused("starting_after=txn_0", "starting_after");
    await refused("metadata[a]=b", "metadata");
  });
});

describe("the running balance in the ledger check", () => {
  it("is proven for every entry, and a running balance that does not add up is found", async () => {
    expect(await checkLedgerConsistency(getDb(), m.id)).toEqual([]);
    const rollback = new Error("rollback");
    await expect(
      inTransaction(getDb(), async (tx) => {
        await execute(
          tx,
          "update ledger_entries set available_after_units = available_after_units + 1 " +
            "where merchant_id = $1 and account = 'available' and cause_id = $2",
          [m.id, made.payment],
        );
        expect(await checkLedgerConsistency(tx, m.id)).toEqual([
          { kind: "running_balance_mismatch", detail: expect.stringContaining(`${m.id}/sandbox/eth: ledger entry`) },
        ]);
        throw rollback;
      }),
    ).rejects.toBe(rollback);
  });

  it("migration 0043 gives the entries booked before it their running balances", async () => {
    const [, backfill] = readFileSync("db/migrations/0043_balance_transactions.sql", "utf8").split(
      "--> statement-breakpoint",
    );
    expect(backfill).toMatch(/^\s*UPDATE "ledger_entries"/);
    const rollback = new Error("rollback");
    await expect(
      inTransaction(getDb(), async (tx) => {
        // As if booked before the column: any value (the column was null then; the constraint wants one now).
        await execute(
          tx,
          "update ledger_entries set available_after_units = 0 where merchant_id = $1 and account = 'available'",
          [m.id],
        );
        expect(await checkLedgerConsistency(tx, m.id)).not.toEqual([]);
        await execute(tx, backfill!);
        expect(await checkLedgerConsistency(tx, m.id)).toEqual([]);
        throw rollback;
      }),
    ).rejects.toBe(rollback);
  });
});
