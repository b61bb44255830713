import { newId } from "@/lib/kernel/random";
import type { Db } from "@/lib/platform/db/client";
import { query } from "@/lib/platform/db/query";
import { postCustody } from "@/lib/books/custody/post-custody";
import { postJournals, type Journal } from "@/lib/books/ledger/post-journal";
import { custodyDepositJournals } from "./deposit-journals";
import { REVERSE } from "./deposit-lifecycle";
import type { WatchScope } from "./watch-scope";

export interface ReorgReversal {
  id: string;
  depositId: string;
  /** Null for a deposit address's deposit (kind `address`). */
  paymentId: string | null;
  depositAddressId: string | null;
  kind: "payment" | "wrong_network" | "address";
  merchantId: string;
  txHash: string;
  amountUnits: bigint;
  takenFromAvailableUnits: bigint;
  receivableUnits: bigint;
  blockNumber: number;
}

/**
 * Reverses credited deposits whose blocks a reorganization deeper than the required confirmations removed,
 * in the caller's transaction (docs/CHAINS.md). Each deposit becomes `orphaned`; one journal per deposit
 * gives its amount back to `chain_deposits`, taking what it can from the merchant's `available` balance
 * (which never goes below zero) and booking the rest on `reorg_receivables`, what the merchant owes the
 * operator; a `reorg_reversals` row records it (REVERSE). The caller locks the deposits' payments first
 * (paymentsOfDeposits), the order every scan locks payments and balances in.
 */
export async function reverseCreditedDeposits(
  tx: Db,
  scope: WatchScope,
  depositIds: string[],
  ancestor: number,
): Promise<ReorgReversal[]> {
  if (depositIds.length === 0) return [];
  const orphaned = await query<{
    id: string;
    payment_id: string | null;
    deposit_address_id: string | null;
    merchant_id: string;
    kind: "payment" | "wrong_network" | "address";
    tx_hash: string;
    amount_units: string;
    raw_amount: string;
    to_address: string;
    block_number: string;
    block_hash: string;
  }>(
    tx,
    `update deposits set status = $2, orphaned_at = now() where id = any($1::text[]) and status = $3
     returning id, payment_id, deposit_address_id, merchant_id, kind, tx_hash, amount_units::text, raw_amount::text,
       to_address,
       block_number::text, block_hash`,
    [depositIds, REVERSE.to, REVERSE.from],
  );
  if (orphaned.length === 0) return [];
  orphaned.sort((a, b) => Number(a.block_number) - Number(b.block_number) || (a.id < b.id ? -1 : 1));
  // The balances rows in key order (as postJournals locks them), read under the lock so that what is
  // taken from `available` is what is there.
  const held = await query<{ merchant_id: string; available_units: string }>(
    tx,
    `select merchant_id, available_units::text from balances
     where merchant_id = any($1::text[]) and mode = $2 and chain = $3
     order by merchant_id, mode, chain for update`,
    [[...new Set(orphaned.map((d) => d.merchant_id))], scope.mode, scope.chain],
  );
  const available = new Map(held.map((b) => [b.merchant_id, BigInt(b.available_units)]));

  const reversals: ReorgReversal[] = [];
  const journals: Journal[] = [];
  for (const d of orphaned) {
    const amount = BigInt(d.amount_units);
    const left = available.get(d.merchant_id) ?? 0n;
    const taken = amount < left ? amount : left;
    available.set(d.merchant_id, left - taken);
    const reversal: ReorgReversal = {
      id: newId("rrv_"),
      depositId: d.id,
      paymentId: d.payment_id,
      depositAddressId: d.deposit_address_id,
      kind: d.kind,
      merchantId: d.merchant_id,
      txHash: d.tx_hash,
      amountUnits: amount,
      takenFromAvailableUnits: taken,
      receivableUnits: amount - taken,
      blockNumber: Number(d.block_number),
    };
    reversals.push(reversal);
    if (amount === 0n) continue;
    const entries: Journal["entries"] = [{ account: "chain_deposits", amount }];
    if (taken > 0n) entries.push({ account: "available", amount: -taken });
    if (amount > taken) entries.push({ account: "reorg_receivables", amount: -(amount - taken) });
    journals.push({
      merchantId: d.merchant_id,
      mode: scope.mode,
      chain: scope.chain,
      cause: { type: "deposit", id: d.id },
      entries,
    });
  }
  await postJournals(tx, journals);
  const onChain = orphaned.map((d) => ({ id: d.id, toAddress: d.to_address, rawAmount: BigInt(d.raw_amount) }));
  await postCustody(tx, custodyDepositJournals(scope, onChain, "reversed"));

  const column = <K extends keyof ReorgReversal>(k: K) => reversals.map((r) => (r[k] === null ? null : String(r[k])));
  await query(
    tx,
    `insert into reorg_reversals (id, deposit_id, payment_id, merchant_id, mode, chain, tx_hash, amount_units,
       taken_from_available_units, receivable_units, block_number, block_hash, ancestor_block_number)
     select r.id, r.deposit_id, r.payment_id, r.merchant_id, $1, $2, r.tx_hash, r.amount, r.taken, r.receivable,
       r.block_number, r.block_hash, $3
     from unnest($4::text[], $5::text[], $6::text[], $7::text[], $8::text[], $9::bigint[], $10::bigint[], $11::bigint[],
       $12::bigint[], $13::text[])
       as r(id, deposit_id, payment_id, merchant_id, tx_hash, amount, taken, receivable, block_number, block_hash)`,
    [
      scope.mode,
      scope.chain,
      ancestor,
      column("id"),
      column("depositId"),
      column("paymentId"),
      column("merchantId"),
      column("txHash"),
      column("amountUnits"),
      column("takenFromAvailableUnits"),
      column("receivableUnits"),
      column("blockNumber"),
      orphaned.map((d) => d.block_hash),
    ],
  );
  return reversals;
}

/** The payments that own these deposits (of kind `payment`), for the caller to lock before reversing them. */
export async function paymentsOfDeposits(tx: Db, depositIds: string[]): Promise<string[]> {
  if (depositIds.length === 0) return [];
  const rows = await query<{ payment_id: string }>(
    tx,
    "select distinct payment_id from deposits where id = any($1::text[]) and kind = 'payment'",
    [depositIds],
  );
  return rows.map((r) => r.payment_id);
}
