import { chainConfig } from "@/lib/chains/chain-config";
import { enabledChains } from "@/lib/chains/chains";
import { checkCustodyConsistency } from "@/lib/books/custody/check-custody-consistency";
import { reconcileChain } from "@/lib/books/custody/reconcile-custody";
import { recordReconcileResult } from "@/lib/books/custody/record-reconcile-result";
import { getDb } from "@/lib/platform/db/client";
import { log } from "@/lib/platform/log";
import { MODES } from "@/lib/kernel/mode";
import * as contracts from "@/lib/platform/jobs/contracts";
import { defineJob } from "@/lib/platform/jobs/define-job";

/**
 * Alerts by log (an error line per finding) and by metric (reconcile_results, docs/OPERATIONS.md#metrics): a shortfall
 * against what merchants are owed, less USDT on chain than the custody books hold, a treasury or sweeper short of
 * native coin for one transaction, or books that do not hold together.
 */
export const reconcileCustodyJob = defineJob(contracts.reconcileCustody, async (payload) => {
  const db = getDb();
  for (const mode of payload.mode ? [payload.mode] : MODES) {
    const problems = await checkCustodyConsistency(db, mode);
    if (problems.length) log.error("custody books inconsistent", { mode, problems });
    for (const chain of payload.chain ? [payload.chain] : enabledChains(mode)) {
      const config = await chainConfig(db, mode, chain);
      if (!config) continue;
      try {
        const report = await reconcileChain(db, config);
        await recordReconcileResult(db, mode, report);
        if (report.alerts.length)
          log.error("custody reconciliation found a gap", { mode, chain, alerts: report.alerts, usdt: report.usdt });
      } catch (err) {
        log.warn("custody reconciliation could not read the chain", { mode, chain, error: String(err) });
      }
    }
  }
});
