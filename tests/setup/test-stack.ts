import { randomBytes } from "node:crypto";
import path from "node:path";
import { resetConfig } from "@/lib/platform/config/env";
import { migrateDatabase } from "@/lib/platform/db/migrate";
import { type SpawnedWebServer, spawnWebServer } from "@/scripts/lib/spawn-web";
import { startAddressPoolKeeper } from "./address-pool-keeper";
import { startTestChains } from "./sandbox-chains";
import { createTestDatabase } from "./test-database";

/** What the tests' processes share with a stack: its database, its Redis prefix and its master key. */
export interface StackContext {
  databaseUrl: string;
  redisKeyPrefix: string;
  masterKey: string;
}

/**
 * A fresh database (migrated), the sandbox chains registered in it and the deposit-address pool keeper: what
 * a run's tests share. `stop` takes it all down again, the database dropped.
 */
export async function startTestStack(
  root: string,
  opts: { mainnetFinality?: boolean } = {},
): Promise<{ context: StackContext; stop: () => Promise<void> }> {
  const database = await createTestDatabase(root);
  const context = {
    databaseUrl: database.url,
    redisKeyPrefix: `test-${randomBytes(4).toString("hex")}:`,
    masterKey: randomBytes(32).toString("base64"),
  };
  let chains: Awaited<ReturnType<typeof startTestChains>> | undefined;
  let stopPoolKeeper: (() => Promise<void>) | undefined;
  const stop = async () => {
    await stopPoolKeeper?.();
    await chains?.stop();
    await database.drop();
  };
  try {
    await migrateDatabase(database.url);
    process.env.MASTER_KEY = context.masterKey; // the solana mint authority is registered encrypted under it
    resetConfig();
    chains = await startTestChains(database.url, opts);
    stopPoolKeeper = await startAddressPoolKeeper(database.url);
  } catch (err) {
    await stop();
    throw err;
  }
  return { context, stop };
}

/**
 * Two web instances (to prove shared state) on a stack. WEBHOOKS_ALLOW_PRIVATE_URLS: sandbox endpoints may
 * point at the tests' loopback receivers (live never). `trustProxy`: the client IP comes from X-Forwarded-For,
 * so browser tests can each act as their own client against the 30/min per-IP page limit.
 */
export async function startWebServers(
  root: string,
  context: StackContext,
  opts: { trustProxy?: boolean } = {},
): Promise<SpawnedWebServer[]> {
  const env = {
    DATABASE_URL: context.databaseUrl,
    MASTER_KEY: context.masterKey,
    WEBHOOKS_ALLOW_PRIVATE_URLS: "true",
    REDIS_KEY_PREFIX: context.redisKeyPrefix,
    DATA_DIR: path.join(root, ".data", "test"),
    LOG_LEVEL: "warn",
    TRUST_PROXY: opts.trustProxy ? "true" : "false",
  };
  const started = await Promise.allSettled([spawnWebServer(root, env), spawnWebServer(root, env)]);
  const servers = started.flatMap((s) => (s.status === "fulfilled" ? [s.value] : []));
  const failed = started.find((s) => s.status === "rejected");
  if (failed) {
    await Promise.all(servers.map((s) => s.stop()));
    throw failed.reason;
  }
  return servers;
}
