import { expect } from "vitest";
import type { Chain } from "@/lib/chains/chains";
import { checkLedgerConsistency } from "@/lib/books/ledger/check-ledger-consistency";
import { formatAmount } from "@/lib/kernel/amount";
import { addDenied } from "@/lib/money-out/destinations/deny-list";
import { REFUND_COLUMNS, toRefundRow } from "@/lib/money-out/refunds/refund-row";
import { serializeRefund } from "@/lib/money-out/refunds/serialize-refund";
import { getDb } from "@/lib/platform/db/client";
import { query } from "@/lib/platform/db/query";
import { api, newKey, type TestMerchant } from "../helpers/api";
import { balanceOf, watchPayment } from "../helpers/chains";
import { waitFor } from "./outbound-helpers";
import { type PayoutSetting, type Recipients, units } from "./payout-helpers";

const FINAL = ["succeeded", "failed", "canceled"];

/** A refund as GET /v1/refunds/:id serializes it for a reader, read from the database (tests poll it every 50 ms). */
export async function refundNow(id: string): Promise<Record<string, any>> {
  const [row] = await query(getDb(), `select ${REFUND_COLUMNS} from refunds where id = $1`, [id]);
  if (!row) throw new Error(`no refund ${id}`);
  return serializeRefund(toRefundRow(row)) as Record<string, any>;
}

/** Waits for `status`, failing at once if the refund ends in another final state. Records the states seen. */
export function waitForRefund(id: string, status: string, timeoutMs = 90_000, seen?: Set<string>) {
  return waitFor(
    `${id} to be ${status}`,
    async () => {
      const now = await refundNow(id);
      seen?.add(now.status);
      if (FINAL.includes(now.status) && now.status !== status)
        throw new Error(`${id} ended ${now.status}: ${JSON.stringify(now)}`);
      return now.status === status ? now : null;
    },
    timeoutMs,
  );
}

/** A refund's merchant ledger entries (USDT base units), per account in the order they were written. */
export async function refundLedger(id: string): Promise<Record<string, string[]>> {
  const rows = await query<{ account: string; amounts: string[] }>(
    getDb(),
    `select account, array_agg(amount_units::text order by id) as amounts from ledger_entries
      where cause_type = 'refund' and cause_id = $1 group by account`,
    [id],
  );
  return Object.fromEntries(rows.map((r) => [r.account, r.amounts]));
}

/** A payment paid in full by POST /v1/sandbox/payments/:id/simulate and confirmed: who paid it, and how much. */
export interface RefundablePayment {
  id: string;
  amount: string;
  depositAddress: string;
  /** The sandbox payer wallet the simulation sent from (the simulate response's `from`). */
  from: string;
}

/**
 * The refund journeys' own sandbox key of the setting's merchant (all default scopes, refunds included): the
 * default 60 calls a minute are not shared with the payout tests on `s.merchant.sandboxKey`.
 */
async function refundCaller(s: PayoutSetting) {
  const key = (await newKey(s.merchant.id, "sandbox")).secret;
  return {
    key,
    balance: (chain: Chain) => balanceOf(key, chain),
    refund: (body: Record<string, unknown>) => api("POST", "/v1/refunds", { key, body }),
    /** The payment's amount_refunded, as GET /v1/payments/:id shows it. */
    refunded: async (paymentId: string) => {
      const got = await api("GET", `/v1/payments/${paymentId}`, { key });
      expect(got.status, got.text).toBe(200);
      return got.json.amount_refunded as string;
    },
  };
}

/**
 * paidPayment (payment-helpers.ts) keeping the simulation's `from`: created, paid in full from a fresh sandbox
 * wallet and watched until `confirmed` (its deposit credited) by the file's watcher.
 */
export async function paidBySimulate(
  m: TestMerchant,
  chain: Chain,
  amount: string,
  timeoutMs = 60_000,
): Promise<RefundablePayment> {
  const created = await api("POST", "/v1/payments", { key: m.sandboxKey, body: { amount, chain } });
  expect(created.status, created.text).toBe(200);
  const paid = await api("POST", `/v1/sandbox/payments/${created.json.id}/simulate`, { key: m.sandboxKey, body: {} });
  expect(paid.status, paid.text).toBe(200);
  expect(paid.json).toMatchObject({ chain, to: created.json.deposit_address, amount });
  await watchPayment(m.id, created.json.id, (p) => p.status === "confirmed", timeoutMs);
  return { id: created.json.id, amount, depositAddress: created.json.deposit_address, from: paid.json.from };
}

/** The raw token units of an API amount on a chain whose token has `decimals` (bnb's sandbox USDT: 18). */
const raw = (amount: bigint, recipients: Recipients) => amount * 10n ** BigInt(recipients.decimals - 6);

/** Whether two addresses on `chain` are the same (EVM's hex is case-insensitive; base58 is not). */
const sameAddress = (chain: Chain, a: string, b: string) =>
  ["eth", "bnb", "polygon"].includes(chain) ? a.toLowerCase() === b.toLowerCase() : a === b;

/**
 * A partial refund to an address the merchant gives: 200 `pending` with `available` down by exactly the amount
 * and the payment's amount_refunded up by it; then pending → processing → succeeded, the recipient's token
 * balance up by exactly the amount, `available` unchanged by the success, signed refund.created and
 * refund.succeeded delivered, the ledger consistent; and a refund of more than the payment has left is refused
 * (400, param amount) with nothing written. `paid` is refunded (a fresh 3.000000 payment when not given).
 */
export async function expectRefundToAddress(
  s: PayoutSetting,
  chain: Chain,
  recipients: Recipients,
  paid?: RefundablePayment,
) {
  const caller = await refundCaller(s);
  const payment = paid ?? (await paidBySimulate({ ...s.merchant, sandboxKey: caller.key }, chain, "3.000000"));
  const to = await recipients.freshAddress();
  const refundedBefore = units(await caller.refunded(payment.id));
  const before = await caller.balance(chain);
  const created = await caller.refund({
    payment: payment.id,
    amount: "1.250000",
    destination: "address",
    to_address: to,
    reason: "requested_by_customer",
    metadata: { order: `R-${chain}` },
  });
  expect(created.status, created.text).toBe(200);
  expect(created.json).toMatchObject({
    object: "refund",
    payment: payment.id,
    amount: "1.250000",
    currency: "USDT",
    chain,
    status: "pending",
    destination: "address",
    to_address: to,
    claim_url: null,
    tx_hash: null,
    failure_code: null,
    succeeded_at: null,
    metadata: { order: `R-${chain}` },
  });
  expect(created.json.id).toMatch(/^re_/);
  const id = created.json.id as string;
  const after = await caller.balance(chain);
  expect(after.available).toBe(formatAmount(units(before.available) - 1_250_000n));
  expect(after.reserved).toBe(before.reserved);
  expect(await caller.refunded(payment.id)).toBe(formatAmount(refundedBefore + 1_250_000n));

  const seen = new Set<string>();
  const done = await waitForRefund(id, "succeeded", 120_000, seen);
  expect([...seen].filter((st) => st !== "pending" && st !== "succeeded")).toEqual(["processing"]);
  expect(done.tx_hash).toBeTruthy();
  expect(done.confirmations).toBeGreaterThan(0);
  expect(done.succeeded_at).toBeTruthy();
  expect(done.failure_code).toBeNull();
  const [transfer] = await query<{ purpose: string; status: string; tx_hash: string | null }>(
    getDb(),
    "select purpose, status, tx_hash from outbound_transactions where cause_id = $1",
    [id],
  );
  expect(transfer).toEqual({ purpose: "refund", status: "confirmed", tx_hash: done.tx_hash });
  expect(await recipients.tokenOf(to)).toBe(raw(1_250_000n, recipients));
  // Debited once, at creation: the success moves nothing more out of `available`, and the refund stays counted.
  expect(await caller.balance(chain)).toEqual(after);
  expect(await refundLedger(id)).toEqual({
    available: ["-1250000"],
    refunds_in_flight: ["1250000", "-1250000"],
    chain_withdrawals: ["1250000"],
  });
  expect(await caller.refunded(payment.id)).toBe(formatAmount(refundedBefore + 1_250_000n));
  // The API's own view of it is the one polled from the database.
  const got = await api("GET", `/v1/refunds/${id}`, { key: caller.key });
  expect(got.status, got.text).toBe(200);
  expect(got.json).toEqual(done);

  expect((await s.webhook("refund.created", id)).data.object).toMatchObject({
    id,
    status: "pending",
    amount: "1.250000",
    to_address: to,
    metadata: { order: `R-${chain}` },
  });
  expect((await s.webhook("refund.succeeded", id)).data.object).toMatchObject({
    id,
    status: "succeeded",
    tx_hash: done.tx_hash,
    metadata: { order: `R-${chain}` },
  });
  expect(await checkLedgerConsistency(getDb(), s.merchant.id)).toEqual([]);

  // More than the payment has left: refused on `amount`, nothing written.
  const left = units(payment.amount) - (refundedBefore + 1_250_000n);
  const rows = async () =>
    (
      await query<{ n: number }>(getDb(), "select count(*)::int as n from refunds where payment_id = $1", [payment.id])
    )[0]!.n;
  const count = await rows();
  const over = await caller.refund({
    payment: payment.id,
    amount: formatAmount(left + 1n),
    destination: "address",
    to_address: await recipients.freshAddress(),
  });
  expect(over.status, over.text).toBe(400);
  expect(over.json.error).toMatchObject({ type: "invalid_request_error", param: "amount" });
  expect(await rows()).toBe(count);
  expect(await caller.balance(chain)).toEqual(after);
  expect(await caller.refunded(payment.id)).toBe(formatAmount(refundedBefore + 1_250_000n));
  return done;
}

/**
 * A refund back to the sender (`destination: "sender"`): its to_address is the wallet the simulation paid
 * from, it succeeds, and that wallet's token balance rises by exactly the amount.
 */
export async function expectRefundToSender(
  s: PayoutSetting,
  chain: Chain,
  recipients: Recipients,
  paid?: RefundablePayment,
) {
  const caller = await refundCaller(s);
  const payment = paid ?? (await paidBySimulate({ ...s.merchant, sandboxKey: caller.key }, chain, "3.000000"));
  const senderBefore = await recipients.tokenOf(payment.from);
  const before = await caller.balance(chain);
  const created = await caller.refund({ payment: payment.id, amount: "1.000000", destination: "sender" });
  expect(created.status, created.text).toBe(200);
  expect(created.json).toMatchObject({ status: "pending", destination: "sender", amount: "1.000000" });
  expect(sameAddress(chain, created.json.to_address, payment.from), created.json.to_address).toBe(true);
  expect((await caller.balance(chain)).available).toBe(formatAmount(units(before.available) - 1_000_000n));
  const seen = new Set<string>();
  const done = await waitForRefund(created.json.id, "succeeded", 120_000, seen);
  expect([...seen].filter((st) => st !== "pending" && st !== "succeeded")).toEqual(["processing"]);
  expect(done.tx_hash).toBeTruthy();
  expect(await recipients.tokenOf(payment.from)).toBe(senderBefore + raw(1_000_000n, recipients));
  expect((await s.webhook("refund.succeeded", created.json.id)).data.object).toMatchObject({
    status: "succeeded",
    destination: "sender",
    tx_hash: done.tx_hash,
  });
  expect(await checkLedgerConsistency(getDb(), s.merchant.id)).toEqual([]);
  return done;
}

/**
 * A refund to an address on the deny-list (or, `refusedBy: "issuer_freeze"`, one USDT's issuer froze: eth, tron,
 * solana): accepted (`pending`, debited), then failed with denied_destination (destination_frozen) before any
 * signing: `available` and the payment's amount_refunded back where they were, no candidate signed
 * for a transfer of it, nothing received, refund.failed delivered.
 */
export async function expectDeniedRefundFails(
  s: PayoutSetting,
  chain: Chain,
  recipients: Recipients,
  paid?: RefundablePayment,
  refusedBy: "deny_list" | "issuer_freeze" = "deny_list",
) {
  const caller = await refundCaller(s);
  const payment = paid ?? (await paidBySimulate({ ...s.merchant, sandboxKey: caller.key }, chain, "3.000000"));
  const to = await recipients.freshAddress();
  if (refusedBy === "deny_list") await addDenied(getDb(), to, chain, "refund test: a listed destination");
  else {
    const frozen = await api("POST", `/v1/sandbox/chains/${chain}/freeze`, {
      key: s.merchant.sandboxKey,
      body: { address: to },
    });
    expect(frozen.status, frozen.text).toBe(200);
  }
  const failureCode = refusedBy === "deny_list" ? "denied_destination" : "destination_frozen";
  const refundedBefore = await caller.refunded(payment.id);
  const before = await caller.balance(chain);
  const created = await caller.refund({
    payment: payment.id,
    amount: "0.500000",
    destination: "address",
    to_address: to,
  });
  expect(created.status, created.text).toBe(200);
  // Accepted and debited (the worker may already have failed it: the ledger shows both moves, below).
  expect(created.json).toMatchObject({ status: "pending", to_address: to, amount: "0.500000" });
  const failed = await waitForRefund(created.json.id, "failed", 60_000);
  expect(failed).toMatchObject({
    failure_code: failureCode,
    tx_hash: null,
    succeeded_at: null,
  });
  expect(failed.failure_message).toBeTruthy();
  expect(await caller.balance(chain)).toEqual(before);
  expect(await refundLedger(created.json.id)).toEqual({
    available: ["-500000", "500000"],
    refunds_in_flight: ["500000", "-500000"],
  });
  expect(await caller.refunded(payment.id)).toBe(refundedBefore);
  const signed = await query(
    getDb(),
    `select c.id from outbound_candidates c join outbound_transactions o on o.id = c.outbound_id
      where o.cause_id = $1`,
    [created.json.id],
  );
  expect(signed).toEqual([]);
  expect(await recipients.tokenOf(to)).toBe(0n);
  expect((await s.webhook("refund.failed", created.json.id)).data.object).toMatchObject({
    id: created.json.id,
    status: "failed",
    failure_code: failureCode,
  });
  expect(await checkLedgerConsistency(getDb(), s.merchant.id)).toEqual([]);
  return failed;
}
