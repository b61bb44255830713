import type { Mode } from "@/lib/kernel/mode";
import { PAYMENT_COLUMNS, toPaymentRow } from "@/lib/money-in/payments/payment-row";
import { readPaymentTransfers } from "@/lib/money-in/payments/payment-transfers";
import { serializePayment } from "@/lib/money-in/payments/serialize-payment";
import { PAYOUT_COLUMNS, toPayoutRow } from "@/lib/money-out/payouts/payout-row";
import { serializePayout } from "@/lib/money-out/payouts/serialize-payout";
import { REFUND_COLUMNS, toRefundRow } from "@/lib/money-out/refunds/refund-row";
import { serializeRefund } from "@/lib/money-out/refunds/serialize-refund";
import type { Db } from "@/lib/platform/db/client";
import { query } from "@/lib/platform/db/query";
import { termCondition } from "./search-conditions";
import type { ParsedSearch, SearchType } from "./search-query";

type Owner = { merchantId: string; mode: Mode };
type Found = { createdAt: Date; id: string; object: Record<string, unknown> };

const TABLES: Record<SearchType, { table: string; columns: string }> = {
  payment: { table: "payments", columns: PAYMENT_COLUMNS },
  payout: { table: "payouts", columns: PAYOUT_COLUMNS },
  refund: { table: "refunds", columns: REFUND_COLUMNS },
};

/**
 * The owner's payments, payouts and refunds (of `types`) that every term matches, newest first, as full objects
 * (docs/API.md#search). Each table is read newest first up to the limit and one more; the merge keeps the newest.
 */
export async function search(
  db: Db,
  owner: Owner,
  parsed: ParsedSearch,
  opts: { limit: number; baseUrl: string },
): Promise<{ data: Record<string, unknown>[]; hasMore: boolean }> {
  const found = await Promise.all(parsed.types.map((type) => searchTable(db, owner, type, parsed, opts)));
  const merged = found.flat().sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime() || (a.id < b.id ? 1 : -1));
  return { data: merged.slice(0, opts.limit).map((f) => f.object), hasMore: merged.length > opts.limit };
}

async function searchTable(
  db: Db,
  owner: Owner,
  type: SearchType,
  parsed: ParsedSearch,
  opts: { limit: number; baseUrl: string },
): Promise<Found[]> {
  const values: unknown[] = [owner.merchantId, owner.mode];
  const conditions: string[] = [];
  for (const term of parsed.terms) {
    const condition = termCondition(type, term, values);
    if (condition === null) return []; // a term that cannot match this table (an amount field that is no amount)
    conditions.push(condition);
  }
  const { table, columns } = TABLES[type];
  // OFFSET 0 keeps the matches' plan apart from the ordering's: the planner would otherwise walk the merchant's
  // rows newest first hoping to meet a match soon (the LIMIT), which reads the whole history when there is one.
  const rows = await query(
    db,
    `select ${columns} from (
       select ${columns
         .split(", ")
         .map((c) => `x.${c}`)
         .join(", ")} from ${table} x
        where x.merchant_id = $1 and x.mode = $2 and ${conditions.join(" and ")} offset 0) x
      order by x.created_at desc, x.id desc limit $${values.push(opts.limit + 1)}`,
    values,
  );
  if (type === "payout") return rows.map(toPayoutRow).map((r) => ({ ...r, object: serializePayout(r) }));
  if (type === "refund") return rows.map(toRefundRow).map((r) => ({ ...r, object: serializeRefund(r) }));
  const payments = rows.map(toPaymentRow);
  const transfers = await readPaymentTransfers(
    db,
    payments.map((p) => p.id),
  );
  return payments.map((p) => ({ ...p, object: serializePayment(p, opts.baseUrl, transfers.get(p.id) ?? []) }));
}
