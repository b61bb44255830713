import type { Db } from "@/lib/platform/db/client";
import { query } from "@/lib/platform/db/query";
import { postDepositMoves } from "./deposit-journals";
import { ORPHAN } from "./deposit-lifecycle";
import type { WatchScope } from "./watch-scope";

/** A deposit a reorganization removed before it was credited. */
export interface OrphanedDeposit {
  id: string;
  paymentId: string;
  kind: "payment" | "wrong_network";
  amountUnits: bigint;
}

/**
 * Orphans deposits whose blocks a reorganization removed, before they were credited, in the caller's
 * transaction (ORPHAN): what each reserved goes back (reserved → chain_deposits) and custody books it back to
 * the payers. If the transfer is mined again on the new chain, the next scan revives the deposit. Returns
 * the deposits it orphaned; their payments decide what that does to them.
 */
export async function orphanDeposits(tx: Db, scope: WatchScope, depositIds: string[]): Promise<OrphanedDeposit[]> {
  if (depositIds.length === 0) return [];
  const orphaned = await query<{
    id: string;
    payment_id: string;
    merchant_id: string;
    kind: "payment" | "wrong_network";
    amount_units: string;
    raw_amount: string;
    to_address: string;
  }>(
    tx,
    `update deposits set status = $2, orphaned_at = now() where id = any($1::text[]) and status = $3
     returning id, payment_id, merchant_id, kind, amount_units::text, raw_amount::text, to_address`,
    [depositIds, ORPHAN.to, ORPHAN.from],
  );
  await postDepositMoves(tx, scope, orphaned, ORPHAN.ledger!, "reversed");
  return orphaned.map((d) => ({
    id: d.id,
    paymentId: d.payment_id,
    kind: d.kind,
    amountUnits: BigInt(d.amount_units),
  }));
}

/** A payment's deposits still on the chain, in chain order. */
export async function depositsOnChain(
  tx: Db,
  paymentId: string,
): Promise<{ txHash: string; blockNumber: number; amountUnits: bigint; fromAddress: string | null }[]> {
  const rows = await query<{
    tx_hash: string;
    block_number: string;
    amount_units: string;
    from_address: string | null;
  }>(
    tx,
    `select tx_hash, block_number::text, amount_units::text, from_address from deposits
     where payment_id = $1 and kind = 'payment' and status <> $2 order by block_number, log_index`,
    [paymentId, ORPHAN.to],
  );
  return rows.map((r) => ({
    txHash: r.tx_hash,
    blockNumber: Number(r.block_number),
    amountUnits: BigInt(r.amount_units),
    fromAddress: r.from_address,
  }));
}
