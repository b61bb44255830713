import type { BlockRef } from "@/lib/chains/chain-adapter";
import { toUsdtUnits } from "@/lib/chains/chain-adapter";
import { postJournals } from "@/lib/books/ledger/post-journal";
import { CREDIT } from "@/lib/money-in/deposits/deposit-lifecycle";
import { orphanDeposits } from "@/lib/money-in/deposits/orphan-deposits";
import { recordDeposits } from "@/lib/money-in/deposits/record-deposits";
import { type ReorgReversal, reverseCreditedDeposits } from "@/lib/money-in/deposits/reverse-credited-deposits";
import { depositCreditJournals } from "@/lib/money-in/deposits/settle-receivables";
import type { WatchScope } from "@/lib/money-in/deposits/watch-scope";
import type { Db } from "@/lib/platform/db/client";
import { query } from "@/lib/platform/db/query";
import { recordDepositEvents } from "./deposit-events";
import { depositMinimum } from "./deposit-minimum";
import type { AddressTransfer } from "./match-address-transfers";

/**
 * Transfers to deposit addresses, in the scan's transaction: each recorded once (lib/money-in/deposits), reserved
 * for the merchant and announced `deposit.pending`; one below the chain's minimum is dust, recorded as ignored
 * (held in custody, never credited, no event). A disabled address's deposit is recorded and credited the same,
 * flagged `address_disabled`. Returns how many were recorded.
 */
export async function recordAddressDeposits(
  tx: Db,
  scope: WatchScope,
  matched: AddressTransfer[],
  blocks: Map<number, BlockRef | null>,
): Promise<number> {
  if (matched.length === 0) return 0;
  const minimum = depositMinimum(scope.chain, scope.mode);
  const recorded = await recordDeposits(
    tx,
    scope,
    matched.map((transfer) => ({
      transfer,
      merchantId: transfer.merchantId,
      kind: "address",
      paymentId: null,
      depositAddressId: transfer.depositAddressId,
      toAddress: transfer.address,
      blockTime: blocks.get(transfer.blockNumber)!.time,
      ignored: toUsdtUnits(transfer.rawAmount, scope.decimals) < minimum,
      addressDisabled: transfer.disabled,
    })),
  );
  await recordDepositEvents(
    tx,
    scope.mode,
    "deposit.pending",
    recorded.filter((d) => d.status === "pending").map((d) => d.id),
  );
  return recorded.length;
}

/**
 * Credits the deposit addresses' pending deposits mined at or before the chain's confirmation depth (CREDIT:
 * reserved → available, settling a reorg receivable first), each once, with `deposit.confirmed`; `only` narrows it
 * to some deposits (a rescan credits what it read, and leaves the rest to the watcher, which checks for reorgs first).
 */
export async function creditAddressDeposits(
  tx: Db,
  scope: WatchScope,
  head: { number: number },
  only?: string[],
): Promise<number> {
  const credited = await query<{ id: string; merchant_id: string; amount_units: string }>(
    tx,
    `update deposits set status = $4, credited_at = now()
     where mode = $1 and chain = $2 and status = $5 and block_number <= $3 and kind = 'address'
       and ($6::text[] is null or id = any($6::text[]))
     returning id, merchant_id, amount_units::text`,
    [scope.mode, scope.chain, head.number - scope.confirmations.required + 1, CREDIT.to, CREDIT.from, only ?? null],
  );
  await postJournals(tx, await depositCreditJournals(tx, scope, credited));
  await recordDepositEvents(
    tx,
    scope.mode,
    "deposit.confirmed",
    credited.map((d) => d.id),
  );
  return credited.length;
}

/** Pending (or dust) address deposits a reorganization removed: orphaned, each (not dust) a `deposit.reversed`. */
export async function orphanAddressDeposits(tx: Db, scope: WatchScope, depositIds: string[]): Promise<number> {
  const orphaned = await orphanDeposits(tx, scope, depositIds);
  const announced = orphaned.filter((d) => !d.wasIgnored).map((d) => d.id);
  await recordDepositEvents(tx, scope.mode, "deposit.reversed", announced);
  return orphaned.length;
}

/** Credited address deposits a reorganization deeper than the depth removed: reversed, each a `deposit.reversed`. */
export async function reverseAddressDeposits(
  tx: Db,
  scope: WatchScope,
  depositIds: string[],
  ancestor: number,
): Promise<ReorgReversal[]> {
  const reversals = await reverseCreditedDeposits(tx, scope, depositIds, ancestor);
  await recordDepositEvents(
    tx,
    scope.mode,
    "deposit.reversed",
    reversals.map((r) => r.depositId),
  );
  return reversals;
}
