import { chainConfig } from "@/lib/chains/chain-config";
import type { Chain } from "@/lib/chains/chains";
import type { Mode } from "@/lib/kernel/mode";
import { DenyListUnreadableError, denialOf } from "@/lib/money-out/destinations/deny-list";
import { screenDestination, UNSCREENED } from "@/lib/money-out/destinations/screen-destination";
import {
  lockTreasuryQueue,
  queueTreasuryTransfer,
  readTreasuryLiquidity,
} from "@/lib/money-out/outbound/treasury-queue";
import { type Db, inTransaction } from "@/lib/platform/db/client";
import { execute, query } from "@/lib/platform/db/query";
import { enqueueJob } from "@/lib/platform/jobs/enqueue-job";
import { log } from "@/lib/platform/log";
import { lockRefund, transitionRefund } from "./transition-refund";

export type RefundStep = "queued" | "waiting" | "failed" | "nothing_to_do";

const RETRY_MS = 10_000;

/**
 * Takes a `pending` refund one step (job `execute_refund`, enqueued when it gets its address): failed when the
 * destination is denied or sanctioned; otherwise its transfer from the treasury is queued in the outbound
 * journal, in the treasury's queue with the payouts (lib/money-out/outbound/treasury-queue.ts). Short of
 * liquidity it waits, asks for sweeps and tries again; it never fails for liquidity.
 */
export async function executeRefund(db: Db, refundId: string): Promise<RefundStep> {
  const [peek] = await query<{ mode: Mode; chain: Chain; status: string; outbound_id: string | null; to: string }>(
    db,
    "select mode, chain, status, outbound_id, to_address as to from refunds where id = $1",
    [refundId],
  );
  if (peek?.status !== "pending" || peek.outbound_id) return "nothing_to_do";
  const config = await chainConfig(db, peek.mode, peek.chain);
  if (!config) return retryLater(db, refundId, "its chain is not running");
  const screening = peek.to ? await screenDestination(config, refundId, peek.to) : UNSCREENED;
  if (screening === null) return retryLater(db, refundId, "its destination cannot be screened");
  const liquidity = await readTreasuryLiquidity(db, config);
  const step = await inTransaction(db, async (tx): Promise<RefundStep> => {
    await lockTreasuryQueue(tx, config);
    const refund = await lockRefund(tx, refundId);
    if (refund?.status !== "pending" || refund.outboundId || !refund.toAddress) return "nothing_to_do";
    const failureCode = await denialOf(tx, refund.chain, refund.toAddress, screening);
    if (failureCode) {
      await transitionRefund(tx, refund, "denied", { failureCode });
      return "failed";
    }
    const transfer = await queueTreasuryTransfer(tx, config, liquidity, {
      purpose: "refund",
      causeId: refund.id,
      toAddress: refund.toAddress,
      amountUnits: refund.amountUnits,
    });
    if (!transfer) return "waiting";
    await execute(tx, "update refunds set outbound_id = $2, updated_at = now() where id = $1", [
      refund.id,
      transfer.id,
    ]);
    return "queued";
  }).catch((err: unknown) => {
    if (!(err instanceof DenyListUnreadableError)) throw err;
    log.error("the deny-list file cannot be read: refunds wait", { refund: refundId, error: err.message });
    return "deny_list_unreadable" as const;
  });
  if (step === "deny_list_unreadable") return retryLater(db, refundId, "the deny-list file cannot be read");
  if (step === "waiting") {
    const [row] = await query<{ amount_units: string }>(db, "select amount_units::text from refunds where id = $1", [
      refundId,
    ]);
    await enqueueJob(
      db,
      "plan_sweeps",
      { mode: config.mode, chain: config.chain, need_units: row!.amount_units },
      { jobKey: `plan_sweeps:${config.mode}:${config.chain}:liquidity` },
    );
    return retryLater(db, refundId, "the treasury does not hold enough yet");
  }
  return step;
}

async function retryLater(db: Db, refundId: string, why: string): Promise<RefundStep> {
  log.info("refund waits", { refund: refundId, why });
  await enqueueJob(
    db,
    "execute_refund",
    { refund_id: refundId },
    { jobKey: `execute_refund:${refundId}`, runAt: new Date(Date.now() + RETRY_MS) },
  );
  return "waiting";
}
