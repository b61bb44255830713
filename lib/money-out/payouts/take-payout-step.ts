import type { ChainConfig } from "@/lib/chains/chain-config";
import type { Db } from "@/lib/platform/db/client";
import { execute } from "@/lib/platform/db/query";
import { log } from "@/lib/platform/log";
import { queueTreasuryTransfer, type TreasuryLiquidity } from "@/lib/money-out/outbound/treasury-queue";
import { denialOf } from "@/lib/money-out/destinations/deny-list";
import type { DestinationScreening } from "@/lib/money-out/destinations/screen-destination";
import { reviewReason } from "./payout-policy";
import { lockPayout, transitionPayout } from "./transition-payout";
import { ensurePayoutBatcher } from "./ensure-payout-batcher";
import { type PayoutBatcher, queuePayoutInBatch } from "./payout-batch";
import { payoutStrategy } from "./payout-strategy";

/** What one execution did with a payout (execute-payout.ts). */
export type PayoutStep = "queued" | "waiting_for_liquidity" | "blocked" | "review_required" | "nothing_to_do";

/** Under the treasury queue's lock: one payout's step. */
export async function takePayoutStep(
  tx: Db,
  config: ChainConfig,
  liquidity: TreasuryLiquidity,
  payoutId: string,
  screening: DestinationScreening,
  batcher: PayoutBatcher | null,
): Promise<PayoutStep> {
  const payout = await lockPayout(tx, payoutId);
  if (payout?.status !== "pending" || payout.outboundId) return "nothing_to_do";
  const failureCode = await denialOf(tx, payout.chain, payout.toAddress, screening);
  if (failureCode) {
    await transitionPayout(tx, payout, "denied", { failureCode });
    return "blocked";
  }
  if (await reviewReason(tx, payout)) {
    await transitionPayout(tx, payout, "held_for_review");
    return "review_required";
  }
  const transferId = batcher
    ? await queuePayoutInBatch(tx, config, liquidity, payout, batcher)
    : (
        await queueTreasuryTransfer(tx, config, liquidity, {
          purpose: "payout",
          causeId: payout.id,
          toAddress: payout.toAddress,
          amountUnits: payout.amountUnits,
        })
      )?.id;
  if (!transferId) return "waiting_for_liquidity";
  await execute(tx, "update payouts set outbound_id = $2, updated_at = now() where id = $1", [payout.id, transferId]);
  return "queued";
}

/** The PayoutBatcher the round's payouts join batches of, or null when they go alone. Network reads. */
export async function payoutBatcherFor(db: Db, config: ChainConfig): Promise<PayoutBatcher | null> {
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
