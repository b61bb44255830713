import { chainConfig } from "@/lib/chains/chain-config";
import { enabledChains } from "@/lib/chains/chains";
import { getDb } from "@/lib/db/client";
import { planSweeps } from "@/lib/sweeps/plan-sweeps";
import { MODES } from "@/lib/modes/mode";
import * as contracts from "@/lib/jobs/contracts";
import { defineJob } from "@/lib/jobs/define-job";

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
