// Worker-only entry point (scale-out): `DATABASE_URL=… npm run start:worker`. Any number may run.
// Runs the job runner and the chain watchers (each watcher is a single leader across all workers);
// WORKER_ROLES=jobs, =watchers or =outbound runs some of them (dedicated watcher instances, for example).
import { bootstrapDatabase } from "./lib/bootstrap-database";
import { closeDb, getDb, getPool, sizePoolForJobs } from "@/lib/platform/db/client";
import { enqueueJob } from "@/lib/platform/jobs/enqueue-job";
import { CHAIN_FAMILIES, POOL_PURPOSES } from "@/lib/kernel/chain-ids";
import { MODES } from "@/lib/kernel/mode";
import { countFreeAddresses, refillJobKey } from "@/lib/chains/wallets/deposit-address-pool";
import { registerOutboundHooksOfDomains } from "@/worker/outbound-hooks";
import { startWorker } from "@/worker/start-jobs";
import { startOutboundLeaders } from "@/lib/money-out/outbound/start-outbound";
import { liveXpubMismatches } from "@/lib/chains/wallets/live-xpubs";
import { startChainWatchers } from "@/lib/money-in/watch/start-watchers";
import { metricsRegistry } from "@/lib/platform/metrics/metrics-registry";
import { startMetricsServer } from "@/lib/platform/metrics/metrics-server";
import { registerServiceMetrics } from "@/worker/service-metrics";
import { onShutdown } from "./lib/shutdown";
import { startupConfig } from "./lib/startup-config";

const cfg = startupConfig();
// The worker holds the live seed (it signs); xpubs configured beside it that are not the seed's would have a
// web process hand payers addresses nobody controls, so it refuses to start (docs/SECURITY.md, "Key custody").
let custodyProblems: string[];
try {
  custodyProblems = liveXpubMismatches(cfg);
} catch (err) {
  custodyProblems = [err instanceof Error ? err.message : String(err)]; // an invalid live mnemonic
}
if (custodyProblems.length) {
  for (const problem of custodyProblems) console.error(`[worker] refusing to start: ${problem}`);
  process.exit(1);
}
registerOutboundHooksOfDomains();

async function sandboxPoolsFilled(timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (const family of CHAIN_FAMILIES)
    for (const purpose of POOL_PURPOSES)
      while ((await countFreeAddresses(getDb(), "sandbox", family, 1, purpose)) === 0) {
        if (Date.now() > deadline) {
          console.error(`[worker] the sandbox ${family} ${purpose} address pool is still empty; its claims wait`);
          return;
        }
        await new Promise((r) => setTimeout(r, 100));
      }
}

function workerMetrics() {
  const registry = metricsRegistry();
  registerServiceMetrics(registry);
  return registry;
}
const roles = cfg.workerRoles;
if (roles.includes("jobs")) sizePoolForJobs(cfg.workerConcurrency);
const database = await bootstrapDatabase({ dataDir: cfg.dataDir });
const runner = roles.includes("jobs") ? await startWorker(getPool()) : null;
// Every address pool topped up now, not at the next minute, one job each so they fill side by side: a fresh
// installation's first payments get addresses within a second.
if (runner)
  for (const mode of MODES)
    for (const family of CHAIN_FAMILIES)
      for (const purpose of POOL_PURPOSES)
        await enqueueJob(
          getDb(),
          "refill_deposit_address_pool",
          { mode, family, purpose },
          { jobKey: refillJobKey(mode, family, purpose) },
        );
// Ready once the sandbox pools hold addresses (their seed is always here): otherwise a payment created in the
// first second after `npm start` says so would wait in `intent_created` for its address. Live pools fill the
// same way; a live payment in that second waits, as it would with the pool ever empty (docs/API.md).
if (runner) await sandboxPoolsFilled(30_000);
const watchers = roles.includes("watchers") ? startChainWatchers(database.url) : null;
const outbound = roles.includes("outbound") ? startOutboundLeaders(database.url) : null;
// A metrics port that cannot be bound must not stop money moving: said loudly, and the scrape target shows down.
const metricsServer =
  cfg.metrics.workerPort !== undefined
    ? await startMetricsServer({ ...cfg.metrics, port: cfg.metrics.workerPort, registry: workerMetrics() }).catch(
        (err: Error) => {
          console.error(`[worker] ${err.message}: running without metrics`);
          return null;
        },
      )
    : null;
console.log(`[worker] running ${roles.join(" and ")}${metricsServer ? `; metrics on ${metricsServer.url}` : ""}`);
process.send?.({ type: "ready" });

onShutdown(async () => {
  await Promise.all([runner?.stop(), watchers?.stop(), outbound?.stop(), metricsServer?.close()]);
  await closeDb();
  await database.stop();
});
