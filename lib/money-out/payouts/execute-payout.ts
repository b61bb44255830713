import { type ChainConfig, chainConfig } from "@/lib/chains/chain-config";
import type { Chain } from "@/lib/chains/chains";
import type { Mode } from "@/lib/kernel/mode";
import { config as appConfig } from "@/lib/platform/config/env";
import { type Db, inTransaction } from "@/lib/platform/db/client";
import { execute, query } from "@/lib/platform/db/query";
import { enqueueJob } from "@/lib/platform/jobs/enqueue-job";
import { log } from "@/lib/platform/log";
import {
  lockTreasuryQueue,
  queueTreasuryTransfer,
  readTreasuryLiquidity,
} from "@/lib/money-out/outbound/treasury-queue";
import { DenyListUnreadableError, denialOf } from "@/lib/money-out/destinations/deny-list";
import { reviewReason } from "./payout-policy";
import { screenDestination } from "@/lib/money-out/destinations/screen-destination";
import { lockPayout, transitionPayout } from "./transition-payout";
import { ensurePayoutBatcher, lastBatchReverted, type PayoutBatcher, queuePayoutInBatch } from "./payout-batch";
import { payoutStrategy } from "./payout-strategy";

export type PayoutStep = "queued" | "waiting_for_liquidity" | "blocked" | "review_required" | "nothing_to_do";

const RETRY_MS = 10_000;

/**
 * Takes a `pending` payout one step (job `execute_payout`, enqueued with it and on approval): blocked if its
 * destination is sanctioned, deny-listed or frozen by USDT's issuer (no fee is spent); held for review by the
 * merchant's policy; otherwise its transfer from the treasury is queued in the outbound journal (the engine signs
 * it, and the payout becomes `processing` then). If the treasury's USDT, less the payouts already queued, does not
 * cover it, it waits in `pending`, sweeps are asked for at once, and it tries again shortly; it never fails for
 * liquidity. Payouts of one (mode, chain) queue
 * one at a time with the treasury's other transfers (lib/money-out/outbound/treasury-queue.ts). With the
 * `batch7702` strategy (EVM) it joins the chain's open payout batch instead (payout-batch.ts), unless its
 * last batch reverted: then it goes alone.
 */
export async function executePayout(db: Db, payoutId: string): Promise<PayoutStep> {
  const [peek] = await query<{
    mode: Mode;
    chain: Chain;
    status: string;
    outbound_id: string | null;
    to_address: string;
  }>(db, "select mode, chain, status, outbound_id, to_address from payouts where id = $1", [payoutId]);
  if (peek?.status !== "pending" || peek.outbound_id) return "nothing_to_do";
  const config = await chainConfig(db, peek.mode, peek.chain);
  if (!config) return retryLater(db, payoutId, "its chain is not running");
  // Network reads before the transaction: the destination screened (the sanctions oracle, USDT's issuer freeze;
  // unreadable, the payout waits), and the treasury's liquidity.
  const screening = await screenDestination(config, payoutId, peek.to_address);
  if (screening === null) return retryLater(db, payoutId, "its destination cannot be screened");
  const liquidity = await readTreasuryLiquidity(db, config);
  const batcher = await batcherFor(db, config, payoutId);
  const step = await inTransaction(db, async (tx): Promise<PayoutStep> => {
    await lockTreasuryQueue(tx, config);
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
  }).catch((err: unknown) => {
    // PAYOUT_DENYLIST_FILE set but unreadable: nothing is decided (the transaction rolled back); it waits.
    if (!(err instanceof DenyListUnreadableError)) throw err;
    log.error("the deny-list file cannot be read: payouts wait", { payout: payoutId, error: err.message });
    return "deny_list_unreadable" as const;
  });
  if (step === "deny_list_unreadable") return retryLater(db, payoutId, "the deny-list file cannot be read");
  if (step === "waiting_for_liquidity") await waitForLiquidity(db, payoutId, config.mode, config.chain);
  return step;
}

/** The PayoutBatcher the payout joins a batch of, or null when it goes alone. Network reads, before the transaction. */
async function batcherFor(db: Db, config: ChainConfig, payoutId: string): Promise<PayoutBatcher | null> {
  if (payoutStrategy(config) !== "batch7702" || (await lastBatchReverted(db, payoutId))) return null;
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

async function waitForLiquidity(db: Db, payoutId: string, mode: Mode, chain: Chain): Promise<PayoutStep> {
  const [row] = await query<{ amount_units: string; waited_ms: string }>(
    db,
    "select amount_units::text, (extract(epoch from now() - created_at) * 1000)::bigint::text as waited_ms from payouts where id = $1",
    [payoutId],
  );
  await enqueueJob(
    db,
    "plan_sweeps",
    { mode, chain, need_units: row!.amount_units },
    {
      jobKey: `plan_sweeps:${mode}:${chain}:liquidity`,
    },
  );
  if (Number(row!.waited_ms) > appConfig().payoutLiquidityAlertMinutes * 60_000)
    log.error("payout waiting for treasury liquidity", {
      payout: payoutId,
      mode,
      chain,
      waited_ms: Number(row!.waited_ms),
    });
  return retryLater(db, payoutId, "the treasury does not hold enough yet");
}

async function retryLater(db: Db, payoutId: string, why: string): Promise<PayoutStep> {
  log.info("payout waits", { payout: payoutId, why });
  await enqueueJob(
    db,
    "execute_payout",
    { payout_id: payoutId },
    { jobKey: `execute_payout:${payoutId}`, runAt: new Date(Date.now() + RETRY_MS) },
  );
  return "waiting_for_liquidity";
}
