import type { Db } from "@/lib/platform/db/client";
import { query } from "@/lib/platform/db/query";
import type { Mode } from "@/lib/kernel/mode";
import { formatAmount } from "@/lib/kernel/amount";

export interface ReorgReversalView {
  id: string;
  deposit: string;
  payment: string;
  merchant: string;
  mode: Mode;
  chain: string;
  tx_hash: string;
  amount: string;
  taken_from_available: string;
  receivable: string;
  block_number: number;
  block_hash: string;
  ancestor_block_number: number;
  detected_at: string;
  settled_at: string | null;
  settled_block_number: number | null;
}

/** The operator's view of reorg reversals (db/schema/reorg-reversals.ts), newest first; open ones only on request. */
export async function listReorgReversals(
  db: Db,
  filter: { merchantId?: string; openOnly?: boolean; limit?: number } = {},
): Promise<ReorgReversalView[]> {
  const rows = await query<Record<string, string | Date | null>>(
    db,
    `select id, deposit_id, payment_id, merchant_id, mode, chain, tx_hash, amount_units::text, taken_from_available_units::text,
            receivable_units::text, block_number::text, block_hash, ancestor_block_number::text, detected_at, settled_at,
            settled_block_number::text
     from reorg_reversals where ($1::text is null or merchant_id = $1) and (not $2 or settled_at is null)
     order by detected_at desc, id desc limit $3`,
    [filter.merchantId ?? null, filter.openOnly ?? false, filter.limit ?? 100],
  );
  return rows.map((r) => ({
    id: r.id as string,
    deposit: r.deposit_id as string,
    payment: r.payment_id as string,
    merchant: r.merchant_id as string,
    mode: r.mode as Mode,
    chain: r.chain as string,
    tx_hash: r.tx_hash as string,
    amount: formatAmount(BigInt(r.amount_units as string)),
    taken_from_available: formatAmount(BigInt(r.taken_from_available_units as string)),
    receivable: formatAmount(BigInt(r.receivable_units as string)),
    block_number: Number(r.block_number),
    block_hash: r.block_hash as string,
    ancestor_block_number: Number(r.ancestor_block_number),
    detected_at: (r.detected_at as Date).toISOString(),
    settled_at: r.settled_at ? (r.settled_at as Date).toISOString() : null,
    settled_block_number: r.settled_block_number === null ? null : Number(r.settled_block_number),
  }));
}
