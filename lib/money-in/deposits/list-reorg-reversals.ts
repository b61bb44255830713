import { reorgReversals } from "@/db/schema/reorg-reversals";
import type { Db } from "@/lib/platform/db/client";
import { query } from "@/lib/platform/db/query";
import type { Mode } from "@/lib/kernel/mode";
import { formatAmount } from "@/lib/kernel/amount";
import { rowMapper } from "@/lib/platform/db/row-mapper";

const reorgReversalRow = rowMapper(reorgReversals);

export interface ReorgReversalView {
  id: string;
  deposit: string;
  payment: string | null;
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
  const rows = await query(
    db,
    `select ${reorgReversalRow.columns} from reorg_reversals
      where ($1::text is null or merchant_id = $1) and (not $2 or settled_at is null)
      order by detected_at desc, id desc limit $3`,
    [filter.merchantId ?? null, filter.openOnly ?? false, filter.limit ?? 100],
  );
  return rows.map(reorgReversalRow.map).map((r) => ({
    id: r.id,
    deposit: r.depositId,
    payment: r.paymentId,
    merchant: r.merchantId,
    mode: r.mode,
    chain: r.chain,
    tx_hash: r.txHash,
    amount: formatAmount(r.amountUnits),
    taken_from_available: formatAmount(r.takenFromAvailableUnits),
    receivable: formatAmount(r.receivableUnits),
    block_number: r.blockNumber,
    block_hash: r.blockHash,
    ancestor_block_number: r.ancestorBlockNumber,
    detected_at: r.detectedAt.toISOString(),
    settled_at: r.settledAt ? r.settledAt.toISOString() : null,
    settled_block_number: r.settledBlockNumber,
  }));
}
