import type { ChainConfig } from "@/lib/chains/chain-config";
import { causeExecutor } from "@/lib/money-out/transfers/execute-causes";
import { queueAlone } from "@/lib/money-out/transfers/take-cause-step";
import type { Db } from "@/lib/platform/db/client";
import { enqueueJob } from "@/lib/platform/jobs/enqueue-job";
import { log } from "@/lib/platform/log";
import { ensurePayoutBatcher } from "./ensure-payout-batcher";
import { lastBatchReverted, type PayoutBatcher, queuePayoutInBatch } from "./payout-batch";
import { PAYOUT_KIND, transitionPayout } from "./payout-kind";
import { reviewReason } from "./payout-policy";
import type { PayoutRow } from "./payout-row";
import { payoutStrategy } from "./payout-strategy";

/** A round's batch contract, and the payouts that go alone because their last batch reverted. */
interface PayoutRound {
  batcher: PayoutBatcher | null;
  alone: Set<string>;
}

/**
 * Payouts are executed by the transfer engine (lib/money-out/transfers/execute-causes.ts, job
 * `execute_payout`, enqueued with the payout and on approval). What a payout adds: the merchant's review policy
 * holds it (`review_required`), and with the `batch` strategy (EVM) it joins the chain's open payout batch
 * (payout-batch.ts), unless its last batch reverted: then it goes alone.
 */
const payoutExecutor = causeExecutor<PayoutRow, PayoutRound>({
  kind: PAYOUT_KIND,
  enqueue: (db, id, runAt) =>
    enqueueJob(db, "execute_payout", { payout_id: id }, { jobKey: `execute_payout:${id}`, runAt }),
  async prepareRound(db, config, ids) {
    const batcher = await payoutBatcherFor(db, config);
    return { batcher, alone: batcher ? await lastBatchReverted(db, ids) : new Set() };
  },
  async hold(tx, payout) {
    if (!(await reviewReason(tx, payout))) return false;
    await transitionPayout(tx, payout, "held_for_review");
    return true;
  },
  queue: (tx, config, liquidity, payout, round) =>
    round.batcher && !round.alone.has(payout.id)
      ? queuePayoutInBatch(tx, config, liquidity, payout, round.batcher)
      : queueAlone(tx, "payout", config, liquidity, payout),
});

export const executePayout = payoutExecutor.execute;
export const executePayoutRound = payoutExecutor.round;

/** The PayoutBatcher the round's payouts join batches of, or null when they go alone. Network reads. */
async function payoutBatcherFor(db: Db, config: ChainConfig): Promise<PayoutBatcher | null> {
  if (payoutStrategy(config) !== "batch") return null;
  try {
    return await ensurePayoutBatcher(db, config);
  } catch (err) {
    // No batch contract can be had (no CREATE2 deployer; a deployment that holds no code): paid alone.
    log.error("payouts cannot be batched: sent one by one", {
      mode: config.mode,
      chain: config.chain,
      error: String(err),
    });
    return null;
  }
}
