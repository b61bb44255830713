import type { Db } from "@/lib/platform/db/client";
import { query } from "@/lib/platform/db/query";
import type { Journal } from "@/lib/books/ledger/post-journal";
import { movementJournals } from "./deposit-journals";
import type { WatchScope } from "./watch-scope";

/**
 * The journals that credit deposits (reserved → available), in the caller's transaction. A deposit that
 * a deep reorganization had reversed and whose transfer was mined again (docs/CHAINS.md) first settles
 * its open `reorg_reversals` row: the part of it booked on `reorg_receivables` goes back there, the rest
 * to `available`, which restores the merchant's balance to what it was before the reorganization.
 */
export async function depositCreditJournals(
  tx: Db,
  scope: WatchScope,
  credited: { id: string; merchant_id: string; amount_units: string }[],
): Promise<Journal[]> {
  if (credited.length === 0) return [];
  const settled = await query<{ deposit_id: string; receivable_units: string }>(
    tx,
    `update reorg_reversals r set settled_at = now(), settled_block_number = d.block_number
     from deposits d
     where d.id = r.deposit_id and r.deposit_id = any($1::text[]) and r.settled_at is null
     returning r.deposit_id, r.receivable_units::text`,
    [credited.map((d) => d.id)],
  );
  const owed = new Map(settled.map((s) => [s.deposit_id, BigInt(s.receivable_units)]));
  const plain = credited.filter((d) => !owed.get(d.id));
  const journals = movementJournals(
    scope,
    plain.map((d) => ({
      merchantId: d.merchant_id,
      cause: { type: "deposit", id: d.id },
      units: BigInt(d.amount_units),
    })),
    "reserved",
    "available",
  );
  for (const d of credited) {
    const amount = BigInt(d.amount_units);
    const receivable = owed.get(d.id) ?? 0n;
    if (!receivable || amount === 0n) continue;
    const repaid = receivable < amount ? receivable : amount;
    const entries: Journal["entries"] = [
      { account: "reserved", amount: -amount },
      { account: "reorg_receivables", amount: repaid },
    ];
    if (amount > repaid) entries.push({ account: "available", amount: amount - repaid });
    journals.push({
      merchantId: d.merchant_id,
      mode: scope.mode,
      chain: scope.chain,
      cause: { type: "deposit", id: d.id },
      entries,
    });
  }
  return journals;
}
