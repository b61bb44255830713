// `npm start`: database (embedded unless DATABASE_URL), migrations, build, web and worker; prints how to
// reach it. Ctrl-C / SIGTERM stops everything it started.
import fs from "node:fs";
import path from "node:path";
import { adoptEmbeddedDatabase } from "@/lib/platform/config/env";
import { bootstrapDatabase } from "./lib/bootstrap-database";
import { closeDb, getDb } from "@/lib/platform/db/client";
import { enabledChains } from "@/lib/chains/chains";
import { processStatusWriter } from "@/lib/platform/health/process-status";
import { ensureDemoMerchant } from "@/lib/identity/merchants/ensure-demo-merchant";
import { INVITE_PATH } from "@/lib/identity/users/invitations";
import { liveXpubMismatches, liveXpubsOfSeed } from "@/lib/chains/wallets/live-xpubs";
import { walletSeed } from "@/lib/chains/wallets/wallet-seed";
import { ensureNextBuild } from "./lib/ensure-build";
import { SupervisedProcess } from "./lib/supervisor";
import { startupConfig } from "./lib/startup-config";

const root = process.cwd();
const cfg = startupConfig();
/** `npm start -- --demo`: a demo merchant even where live chains are configured (its owner gets an invitation). */
const wantsDemo = process.argv.slice(2).includes("--demo");
const children: SupervisedProcess[] = [];
let dbProcess: SupervisedProcess | null = null;
let shuttingDown = false;
fs.mkdirSync(cfg.dataDir, { recursive: true });
/** Every supervised process's state, for the web's /api/health (which says which one is down). */
const reportState = processStatusWriter(cfg.dataDir);

async function shutdown(code: number) {
  if (shuttingDown) return;
  shuttingDown = true;
  console.log("\nStopping…");
  await Promise.all(children.map((c) => c.stop()));
  await closeDb().catch(() => undefined);
  await dbProcess?.stop();
  process.exit(code);
}
process.on("SIGINT", () => void shutdown(0));
process.on("SIGTERM", () => void shutdown(0));

/**
 * The web child's environment: without the live seed and role key files, which only the worker (the signer) holds; with
 * the seed's account xpubs instead, from which it derives live EVM and Tron addresses (docs/SECURITY.md).
 */
function webEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const {
    LIVE_SEED_MNEMONIC: _mnemonic,
    LIVE_SEED_FILE: _file,
    LIVE_TREASURY_KEY_FILE: _treasury,
    LIVE_SWEEPER_KEY_FILE: _sweeper,
    ...rest
  } = env;
  const xpubs = liveXpubsOfSeed(cfg);
  if (!xpubs) return rest;
  return { ...rest, LIVE_EVM_XPUB: env.LIVE_EVM_XPUB || xpubs.evm, LIVE_TRON_XPUB: env.LIVE_TRON_XPUB || xpubs.tron };
}

try {
  const custodyProblems = liveXpubMismatches(cfg);
  if (custodyProblems.length) throw new Error(custodyProblems.join("\n"));
  const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: cfg.dataDir, NEXT_TELEMETRY_DISABLED: "1" };
  if (!cfg.databaseUrl) {
    dbProcess = new SupervisedProcess("database", path.join(root, "scripts/start-db.ts"), env, reportState);
    const { url } = await dbProcess.ready;
    if (!url) throw new Error("the embedded database reported no URL");
    Object.assign(env, { DATABASE_URL: url, EMBEDDED_DATABASE: "1" });
    // This process (bootstrap, getDb, the master key) reads the embedded server's URL too.
    adoptEmbeddedDatabase(url);
  }
  // Sandbox chains start while the database migrates and the app builds.
  const chainsProcess = cfg.sandboxChains
    ? new SupervisedProcess("sandbox chains", path.join(root, "scripts/start-chains.ts"), env, reportState)
    : null;
  if (chainsProcess) children.push(chainsProcess);
  await bootstrapDatabase({ dataDir: cfg.dataDir });
  // A demo owner only where no live chain is configured, or when asked for (docs/DASHBOARD.md#the-demo-merchant).
  const live = enabledChains("live", cfg).length > 0;
  const demo =
    !live || wantsDemo
      ? await ensureDemoMerchant(getDb(), { owner: live ? "invitation" : "password", sandboxChains: !live })
      : null;
  await walletSeed(getDb(), "sandbox"); // the sandbox HD seed is generated (encrypted) on first start
  await closeDb();
  ensureNextBuild(root);

  const web = new SupervisedProcess("web", path.join(root, "scripts/start-web.ts"), webEnv(env), reportState);
  const worker = new SupervisedProcess("worker", path.join(root, "scripts/start-worker.ts"), env, reportState);
  children.push(web, worker);
  const [, , chains] = await Promise.all([web.ready, worker.ready, chainsProcess?.ready]);

  const dbLine = dbProcess ? `embedded PostgreSQL in ${path.join(cfg.dataDir, "postgres")}` : "DATABASE_URL";
  const lines = [
    "",
    "USDT Payments is running",
    `  Web:       ${cfg.publicBaseUrl}`,
    `  API:       ${cfg.publicBaseUrl}/v1`,
    `  Database:  ${dbLine}`,
    ...(demo ? [`  Merchant:  ${demo.merchantId} (demo)`] : []),
    ...(chains?.chains ?? []).map((c) =>
      c.emulated
        ? `  Sandbox:   ${c.chain.padEnd(8)} ${c.rpcUrl}  emulated, USDT ${c.token} (${c.decimals} decimals)`
        : `  Sandbox:   ${c.chain.padEnd(8)} ${c.rpcUrl}  chain id ${c.chainId}, ` +
          `USDT ${c.token} (${c.decimals} decimals)`,
    ),
  ];
  if (!demo) {
    lines.push(
      "  Merchants: none made by npm start, as live chains are configured (npm start -- --demo adds a demo one):",
      "             npm run --silent cli -- merchants create --name N --email E",
      "             npm run --silent cli -- users invite --merchant mer_… --email E --role owner   (a one-time link)",
      `  Dashboard: ${cfg.publicBaseUrl}/dashboard`,
    );
  } else if (demo.sandboxSecret) {
    lines.push(
      `  Sandbox API key (shown only this once, store it now): ${demo.sandboxSecret}`,
      `  Try:       curl -s ${cfg.publicBaseUrl}/v1/payment-links -H "Authorization: Bearer ${demo.sandboxSecret}"`,
    );
  } else {
    lines.push(`  New key:   npm run --silent cli -- keys create --merchant ${demo.merchantId} --mode sandbox`);
  }
  if (demo?.dashboard) {
    lines.push(
      `  Dashboard: ${cfg.publicBaseUrl}/dashboard`,
      `  Sign in:   ${demo.dashboard.email} / ${demo.dashboard.password}  (password shown only this once)`,
    );
  } else if (demo?.invitation) {
    lines.push(
      `  Dashboard: ${cfg.publicBaseUrl}/dashboard`,
      `  Owner:     ${cfg.publicBaseUrl}${INVITE_PATH}${demo.invitation.token}`,
      `             (${demo.invitation.email} chooses a password there: works once, for 7 days, shown only this once)`,
    );
  } else if (demo) {
    lines.push(
      `  Dashboard: ${cfg.publicBaseUrl}/dashboard  ` +
        `(new user: npm run --silent cli -- users create --merchant ${demo.merchantId} --email E --role owner)`,
    );
  }
  lines.push("Press Ctrl-C to stop.", "");
  console.log(lines.join("\n"));
} catch (err) {
  console.error(`[start] ${err instanceof Error ? err.message : String(err)}`);
  await shutdown(1);
}
