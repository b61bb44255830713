import type { Db } from "@/lib/platform/db/client";
import { query } from "@/lib/platform/db/query";
import { postDepositMoves } from "./deposit-journals";
import { ORPHAN, ORPHAN_DUST } from "./deposit-lifecycle";
import type { WatchScope } from "./watch-scope";

/** A deposit a reorganization removed before it was credited. */
export interface OrphanedDeposit {
  id: string;
  paymentId: string | null;
  depositAddressId: string | null;
  kind: "payment" | "wrong_network" | "address";
  amountUnits: bigint;
  /** It was dust (ignored): nothing of the merchant's moved. */
  wasIgnored: boolean;
}

/**
 * Orphans deposits whose blocks a reorganization removed, before they were credited, in the caller's
 * transaction (ORPHAN): what each reserved goes back (reserved → chain_deposits) and custody books it back to
 * the payers (dust, ORPHAN_DUST, only the latter). If the transfer is mined again on the new chain, the next scan
 * revives the deposit. Returns the deposits it orphaned; their payments decide what that does to them.
 */
export async function orphanDeposits(tx: Db, scope: WatchScope, depositIds: string[]): Promise<OrphanedDeposit[]> {
  if (depositIds.length === 0) return [];
  const orphaned = await query<{
    id: string;
    payment_id: string | null;
    deposit_address_id: string | null;
    status: string;
    merchant_id: string;
    kind: "payment" | "wrong_network" | "address";
    amount_units: string;
    raw_amount: string;
    to_address: string;
  }>(
    tx,
    // `status` returned is the one before (the row as the CTE locked it), so dust moves nothing of the merchant's.
    `with was as (select id, status from deposits where id = any($1::text[]) and status in ($3, $4) for update)
     update deposits d set status = $2, orphaned_at = now() from was where d.id = was.id
     returning d.id, d.payment_id, d.deposit_address_id, was.status, d.merchant_id, d.kind, d.amount_units::text,
       d.raw_amount::text, d.to_address`,
    [depositIds, ORPHAN.to, ORPHAN.from, ORPHAN_DUST.from],
  );
  await postDepositMoves(tx, scope, orphaned, ORPHAN.ledger!, "reversed");
  return orphaned.map((d) => ({
    id: d.id,
    paymentId: d.payment_id,
    depositAddressId: d.deposit_address_id,
    wasIgnored: d.status === ORPHAN_DUST.from,
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
