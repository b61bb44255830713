import { z } from "zod";
import { chainConfig } from "@/lib/chains/chain-config";
import { CHAINS, enabledChains } from "@/lib/chains/chains";
import { getDb } from "@/lib/db/client";
import { MODES } from "@/lib/modes/mode";
import { planSweeps } from "@/lib/sweeps/plan-sweeps";
import { defineJob } from "../define-job";

export const planSweepsJob = defineJob({
  name: "plan_sweeps",
  description:
    "Plans sweeps of deposit addresses at or above their chain's threshold into the treasury (every minute, per enabled mode and chain); with need_units, at once and whatever the threshold, until that much USDT is on its way.",
  payload: z.object({
    mode: z.enum(MODES).optional(),
    chain: z.enum(CHAINS).optional(),
    need_units: z.string().regex(/^\d+$/).optional(),
  }),
  cron: "* * * * *",
  handler: async (payload, helpers) => {
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
  },
});
