import { formatAmount, parseAmount } from "@/lib/kernel/amount";
import type { Mode } from "@/lib/kernel/mode";
import type { Db } from "@/lib/platform/db/client";
import { query } from "@/lib/platform/db/query";

/** A merchant's refund policy in one mode (docs/REFUNDS.md#policy); off unless set. */
export interface RefundPolicy {
  merchant: string;
  mode: Mode;
  /** A payment overpaid by more than this (USDT base units) gets a claim refund of the excess; null: off. */
  overpaidAboveUnits: bigint | null;
  /** A payment's transfers that arrived after it expired get a claim refund. */
  refundLatePayments: boolean;
}

/**
 * The overpayment threshold as people type it: an exact 6-decimal amount, "0.000000" (any excess), or `off`
 * (the CLI's "none", the dashboard's blank) → null.
 */
export function parseOverpaidAbove(
  raw: string,
  off: string,
): { ok: true; units: bigint | null } | { ok: false; message: string } {
  const value = raw.trim();
  if (value === off) return { ok: true, units: null };
  if (value === "0.000000") return { ok: true, units: 0n };
  const parsed = parseAmount(value, "exact");
  return parsed.ok ? parsed : { ok: false, message: parsed.message.replace(/^amount /, "") };
}

export async function getRefundPolicy(db: Db, merchantId: string, mode: Mode): Promise<RefundPolicy> {
  const [row] = await query<{ overpaid_above_units: string | null; refund_late_payments: boolean }>(
    db,
    "select overpaid_above_units::text, refund_late_payments from refund_policies where merchant_id = $1 and mode = $2",
    [merchantId, mode],
  );
  return {
    merchant: merchantId,
    mode,
    overpaidAboveUnits: row?.overpaid_above_units ? BigInt(row.overpaid_above_units) : null,
    refundLatePayments: row?.refund_late_payments ?? false,
  };
}

export async function setRefundPolicy(db: Db, policy: RefundPolicy): Promise<RefundPolicy> {
  await query(
    db,
    `insert into refund_policies (merchant_id, mode, overpaid_above_units, refund_late_payments) values ($1, $2, $3, $4)
     on conflict (merchant_id, mode) do update set overpaid_above_units = excluded.overpaid_above_units,
       refund_late_payments = excluded.refund_late_payments, updated_at = now()`,
    [policy.merchant, policy.mode, policy.overpaidAboveUnits?.toString() ?? null, policy.refundLatePayments],
  );
  return policy;
}

export const serializeRefundPolicy = (p: RefundPolicy) => ({
  object: "refund_policy",
  merchant: p.merchant,
  mode: p.mode,
  overpaid_above: p.overpaidAboveUnits === null ? null : formatAmount(p.overpaidAboveUnits),
  refund_late_payments: p.refundLatePayments,
});
