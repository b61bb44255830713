import { readReconcileResults } from "@/lib/books/custody/record-reconcile-result";
import { enabledChainConfigs } from "@/lib/chains/chain-config";
import { MODES } from "@/lib/kernel/mode";
import { listChainStatus } from "@/lib/money-in/watch/chain-status";
import { PAYOUT_LIFECYCLE } from "@/lib/money-out/payouts/payout-lifecycle";
import { REFUND_LIFECYCLE } from "@/lib/money-out/refunds/refund-lifecycle";
import { countCauses } from "@/lib/money-out/transfers/count-causes";
import { countUndeliveredWebhooks } from "@/lib/notify/webhooks/count-undelivered";
import { config } from "@/lib/platform/config/env";
import type { Db } from "@/lib/platform/db/client";
import { readQueueDepth } from "@/lib/platform/jobs/queue-depth";

/**
 * What an operator's alerts watch, read from the database at once (each read is over an index or a small
 * table): so any worker reports the same numbers, however many run and whichever did the work.
 */
export async function readOperationsSnapshot(db: Db) {
  const [chains, deliveries, jobs, payouts, refunds, reconcile] = await Promise.all([
    Promise.all(
      MODES.map(async (mode) =>
        (await listChainStatus(db, mode, await enabledChainConfigs(db, mode))).map((c) => ({ mode, ...c })),
      ),
    ).then((perMode) => perMode.flat()),
    countUndeliveredWebhooks(db),
    readQueueDepth(db),
    countCauses(db, "payouts", PAYOUT_LIFECYCLE, config().payoutLiquidityAlertMinutes),
    countCauses(db, "refunds", REFUND_LIFECYCLE),
    readReconcileResults(db),
  ]);
  return { chains, deliveries, jobs, payouts, refunds, reconcile };
}

export type OperationsSnapshot = Awaited<ReturnType<typeof readOperationsSnapshot>>;
