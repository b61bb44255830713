// Web-only entry point (scale-out): `DATABASE_URL=… npm run start:web`. Needs `npm run build` first.
import { existsSync } from "node:fs";
import path from "node:path";
import v8 from "node:v8";
import { bootstrapDatabase } from "./lib/bootstrap-database";
import { closeDb } from "@/lib/platform/db/client";
import { startWebServer } from "@/lib/http/server/web-server";
import { metricsRegistry } from "@/lib/platform/metrics/metrics-registry";
import { startMetricsServer } from "@/lib/platform/metrics/metrics-server";
import { onShutdown } from "./lib/shutdown";
import { startupConfig } from "./lib/startup-config";

const WEB_HEAP_GROWING_PERCENT = 25;

// V8 lets the old generation grow to about twice what survived the last full collection before it collects again;
// with the web's ~130 MB of loaded routes, a long stream (an export of a million rows) left ~190 MB of garbage
// waiting. 25 % more before each collection keeps it to ~70 MB, at no cost measured in rows/s or requests/s
// (docs/EXPORTS.md, "Measured"). Read at every collection, so setting it here, before the app loads, is in time.
v8.setFlagsFromString(`--heap-growing-percent=${WEB_HEAP_GROWING_PERCENT}`);
const cfg = startupConfig();
const dir = process.cwd();
if (cfg.liveSeedMnemonic || cfg.liveSeedFile) {
  // Allowed (it works), but the public-facing process then holds the root of every live deposit address.
  console.warn(
    "[web] warning: the live seed (LIVE_SEED_MNEMONIC / LIVE_SEED_FILE) is set in the web process; " +
      "give it LIVE_EVM_XPUB and LIVE_TRON_XPUB instead and keep the seed on the worker " +
      '(docs/SECURITY.md, "Key custody").',
  );
}
if (!existsSync(path.join(dir, ".next", "BUILD_ID"))) {
  console.error("No production build found: run `npm run build` first (npm start does this for you).");
  process.exit(1);
}
const database = await bootstrapDatabase({ dataDir: cfg.dataDir });
const metrics = cfg.metrics.webPort !== undefined ? metricsRegistry() : undefined;
const web = await startWebServer({ dir, host: cfg.host, port: cfg.port, trustProxy: cfg.trustProxy, metrics });
console.log(`[web] listening on ${web.url} (public URL ${cfg.publicBaseUrl})`);
// A metrics port that cannot be bound must not stop payments: said loudly, and the scrape target shows down.
const metricsServer = metrics
  ? await startMetricsServer({ ...cfg.metrics, port: cfg.metrics.webPort!, registry: metrics }).catch((err: Error) => {
      console.error(`[web] ${err.message}: running without metrics`);
      return null;
    })
  : null;
if (metricsServer) console.log(`[web] metrics on ${metricsServer.url}`);
process.send?.({ type: "ready", url: web.url });

onShutdown(async () => {
  await Promise.all([web.close(), metricsServer?.close()]);
  await closeDb();
  await database.stop();
});
