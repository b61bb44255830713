import { requireEnabledChain } from "@/lib/chains/require-enabled-chain";
import { newId } from "@/lib/kernel/random";
import type { Db } from "@/lib/platform/db/client";
import { query } from "@/lib/platform/db/query";
import { enqueueJob } from "@/lib/platform/jobs/enqueue-job";
import type { Mode } from "@/lib/kernel/mode";
import { prepareDestinationCheck } from "@/lib/money-out/transfers/check-destination";
import { reserveForCause } from "@/lib/money-out/transfers/reserve-cause";
import { PAYOUT_COLUMNS, toPayoutRow, type PayoutRow } from "./payout-row";
import type { CreatePayoutInput } from "./schemas";

/**
 * Creating a payout, first phase (in the request's short transaction): its destination's guards the database
 * answers; returns the network check to run outside any transaction (lib/money-out/transfers/check-destination.ts).
 */
export const preparePayout = prepareDestinationCheck;

/** Who asks for a payout: a dashboard user, or an API key (docs/PAYOUTS.md, "Review": two people). */
export type PayoutCreator = { userId: string } | { keyId: string };

/**
 * Creates a `pending` payout and debits `available` into `payouts_in_flight` in the caller's transaction.
 * Not enough available balance → 422 insufficient_balance, nothing written (the caller's transaction is
 * rolled back). Concurrent payouts serialize on the balances row, so they can never overdraw it.
 * Its execution (job `execute_payout`: deny-list, review policy, liquidity, then the transfer) is enqueued in
 * this same transaction, so a payout that exists is always taken forward.
 */
export async function createPayout(
  db: Db,
  owner: { merchantId: string; mode: Mode },
  input: CreatePayoutInput,
  createdBy: PayoutCreator,
): Promise<PayoutRow> {
  requireEnabledChain(owner.mode, input.chain);
  const id = newId("pay_out_");
  const [row] = await query(
    db,
    `insert into payouts (id, merchant_id, mode, status, chain, to_address, amount_units, description, metadata,
       created_by_user_id, created_by_key_id, created_at)
     values ($1, $2, $3, 'pending', $4, $5, $6, $7, $8, $9, $10, now()) returning ${PAYOUT_COLUMNS}`,
    [
      id,
      owner.merchantId,
      owner.mode,
      input.chain,
      input.to_address,
      input.amount.toString(),
      input.description ?? null,
      JSON.stringify(input.metadata ?? {}),
      "userId" in createdBy ? createdBy.userId : null,
      "keyId" in createdBy ? createdBy.keyId : null,
    ],
  );
  await enqueueJob(db, "execute_payout", { payout_id: id }, { jobKey: `execute_payout:${id}` });
  // Last: the balance stays locked from here to COMMIT, and a burst of payouts waits on it one by one.
  await reserveForCause(db, "payout", { id, ...owner, chain: input.chain, amount: input.amount });
  return toPayoutRow(row!);
}
