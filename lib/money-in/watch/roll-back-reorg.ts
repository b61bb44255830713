import { inTransaction, type Db } from "@/lib/platform/db/client";
import { query } from "@/lib/platform/db/query";
import { orphanPaymentDeposits, reversePaymentDeposits } from "@/lib/money-in/payments/apply-deposits";
import {
  orphanAddressDeposits,
  reverseAddressDeposits,
} from "@/lib/money-in/deposit-addresses/record-address-deposits";
import { log } from "@/lib/platform/log";
import { formatAmount } from "@/lib/kernel/amount";
import { moveCursor, type Cursor } from "./chain-cursor";
import type { ScanTarget } from "./scan-target";

/**
 * The block under the cursor is no longer on the chain. Finds the newest remembered block that still is
 * (the common ancestor), orphans the uncredited deposits whose blocks are gone (reversing what they
 * reserved and what they did to their payments) and moves the cursor back to the ancestor, in one
 * transaction; the next scans read the new branch. Deposits in blocks that survived are kept as they are.
 * A credited deposit removed by a reorg deeper than the required confirmations is reversed in the same
 * transaction into the merchant's available balance and, for what that cannot cover, a receivable
 * (lib/money-in/deposits/reverse-credited-deposits.ts); each reversal is an error-level alert for the operator.
 */
export async function rollBackReorg(
  db: Db,
  target: ScanTarget,
  cursor: Cursor,
): Promise<{ ancestor: number; orphaned: number }> {
  const { adapter } = target;
  const remembered = await query<{ number: string; hash: string }>(
    db,
    "select number::text, hash from chain_blocks where mode = $1 and chain = $2 and number <= $3 order by number desc",
    [target.mode, target.chain, cursor.number],
  );
  const onChain = await adapter.blocks(remembered.map((b) => Number(b.number)));
  const common = remembered.find((b) => onChain.get(Number(b.number))?.hash === b.hash);
  const oldest = remembered.length ? Number(remembered[remembered.length - 1]!.number) : cursor.number;
  const ancestor = common ? Number(common.number) : Math.max(-1, oldest - 1);

  const candidates = await query<{
    id: string;
    status: string;
    kind: string;
    block_number: string;
    block_hash: string;
    tx_hash: string;
  }>(
    db,
    `select id, status, kind, block_number::text, block_hash, tx_hash from deposits
     where mode = $1 and chain = $2 and status <> 'orphaned' and block_number > $3`,
    [target.mode, target.chain, ancestor],
  );
  const current = await adapter.blocks(candidates.map((d) => Number(d.block_number)));
  const gone = candidates.filter((d) => current.get(Number(d.block_number))?.hash !== d.block_hash);
  const { orphaned, reversals } = await inTransaction(db, async (tx) => {
    await moveCursor(tx, target, cursor.number, { number: ancestor, hash: common?.hash ?? null, time: null });
    await query(tx, "delete from chain_blocks where mode = $1 and chain = $2 and number > $3", [
      target.mode,
      target.chain,
      ancestor,
    ]);
    // A payment's deposits are the payment's to decide; a deposit address's (dust too) are announced.
    const ofPayments = gone.filter((d) => d.kind !== "address");
    const ofAddresses = gone.filter((d) => d.kind === "address");
    const ids = (of: typeof gone, ...statuses: string[]) =>
      of.filter((d) => statuses.includes(d.status)).map((d) => d.id);
    const orphaned =
      (await orphanPaymentDeposits(tx, target, ids(ofPayments, "pending"))) +
      (await orphanAddressDeposits(tx, target, ids(ofAddresses, "pending", "ignored")));
    const reversals = [
      ...(await reversePaymentDeposits(tx, target, ids(ofPayments, "credited"), ancestor)),
      ...(await reverseAddressDeposits(tx, target, ids(ofAddresses, "credited"), ancestor)),
    ];
    return { orphaned, reversals };
  });
  for (const r of reversals) {
    log.error("a reorganization deeper than the required confirmations removed a credited deposit: reversed", {
      reversal: r.id,
      deposit: r.depositId,
      payment: r.paymentId,
      deposit_address: r.depositAddressId,
      merchant: r.merchantId,
      chain: target.chain,
      mode: target.mode,
      tx: r.txHash,
      block: r.blockNumber,
      amount: formatAmount(r.amountUnits),
      taken_from_available: formatAmount(r.takenFromAvailableUnits),
      receivable: formatAmount(r.receivableUnits),
    });
  }
  log.warn("chain reorganization: rolled back", {
    chain: target.chain,
    mode: target.mode,
    from: cursor.number,
    to: ancestor,
    orphaned,
    reversed: reversals.length,
  });
  return { ancestor, orphaned: orphaned + reversals.length };
}
