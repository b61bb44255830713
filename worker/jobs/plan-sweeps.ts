import { chainConfig } from "@/lib/chains/chain-config";
import { enabledChains } from "@/lib/chains/chains";
import { getDb } from "@/lib/platform/db/client";
import { planSweeps } from "@/lib/money-out/sweeps/plan-sweeps";
import { MODES } from "@/lib/kernel/mode";
import * as contracts from "@/lib/platform/jobs/contracts";
import { defineJob } from "@/lib/platform/jobs/define-job";

export const planSweepsJob = defineJob(contracts.planSweeps, async (payload, helpers) => {
  const db = getDb();
  const modes = payload.mode ? [payload.mode] : MODES;
  for (const mode of modes)
    for (const chain of payload.chain ? [payload.chain] : enabledChains(mode)) {
      const config = await chainConfig(db, mode, chain);
      if (!config) continue;
      const planned = await planSweeps(db, config, {
        needUnits: payload.need_units === undefined ? undefined : BigInt(payload.need_units),
      });
      if (planned.length) helpers.logger.info(`${mode} ${chain}: ${planned.length} sweeps planned`);
    }
});
