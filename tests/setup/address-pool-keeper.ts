import { resetConfig } from "@/lib/platform/config/env";
import { closeDb, getDb, getPool } from "@/lib/platform/db/client";
import { CHAIN_FAMILIES, POOL_PURPOSES } from "@/lib/kernel/chain-ids";
import { startJobRunner } from "@/lib/platform/jobs/job-runner";
import { refillDepositAddressPool } from "@/lib/chains/wallets/refill-deposit-address-pool";
import { REFILL_JOB } from "@/lib/chains/wallets/deposit-address-pool";
import { taskList } from "@/worker/task-list";

/**
 * What the worker does for the run's web instances, which run without one: the sandbox address pools (payment and
 * deposit) filled before any test starts, then kept filled by a job runner that knows only the refill (claims that
 * leave a pool low ask for it, as in production). Live pools stay empty: no live seed is configured here.
 */
export async function startAddressPoolKeeper(databaseUrl: string): Promise<() => Promise<void>> {
  process.env.DATABASE_URL = databaseUrl;
  resetConfig();
  await Promise.all(
    CHAIN_FAMILIES.flatMap((family) =>
      POOL_PURPOSES.map((purpose) => refillDepositAddressPool(getDb(), "sandbox", family, undefined, purpose)),
    ),
  );
  const runner = await startJobRunner(getPool(), { taskList: { [REFILL_JOB]: taskList[REFILL_JOB] }, crontab: "" });
  return async () => {
    await runner.stop();
    await closeDb();
  };
}
