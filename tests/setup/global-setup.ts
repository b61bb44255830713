import { randomBytes } from "node:crypto";
import path from "node:path";
import type { TestProject } from "vitest/node";
import { resetConfig } from "@/lib/platform/config/env";
import { migrateDatabase } from "@/lib/platform/db/migrate";
import { createTestDatabase } from "./test-database";
import { startTestChains } from "./sandbox-chains";
import { startAddressPoolKeeper } from "./address-pool-keeper";
import { spawnWebServer, type SpawnedWebServer } from "@/scripts/lib/spawn-web";

declare module "vitest" {
  export interface ProvidedContext {
    databaseUrl: string;
    webUrls: string[];
    redisKeyPrefix: string;
    masterKey: string;
  }
}

/** One fresh database, the sandbox chains and two web instances (to prove shared state) for the whole run. */
export default function setup(project: TestProject) {
  return setupRun(project, {});
}

/**
 * The run's stack. `trustProxy`: the web instances read the client IP from X-Forwarded-For, so browser
 * tests can each act as their own client against the 30/min per-IP page limit.
 */
export async function setupRun(project: TestProject, opts: { trustProxy?: boolean }) {
  const root = path.resolve(import.meta.dirname, "../..");
  const database = await createTestDatabase(root);
  await migrateDatabase(database.url);
  const redisKeyPrefix = `test-${randomBytes(4).toString("hex")}:`;
  const masterKey = randomBytes(32).toString("base64");
  // WEBHOOKS_ALLOW_PRIVATE_URLS: sandbox endpoints may point at the tests' loopback receivers (live never).
  const env = {
    DATABASE_URL: database.url,
    MASTER_KEY: masterKey,
    WEBHOOKS_ALLOW_PRIVATE_URLS: "true",
    REDIS_KEY_PREFIX: redisKeyPrefix,
    DATA_DIR: path.join(root, ".data", "test"),
    LOG_LEVEL: "warn",
    TRUST_PROXY: opts.trustProxy ? "true" : "false",
  };
  const servers: SpawnedWebServer[] = [];
  let chains: Awaited<ReturnType<typeof startTestChains>> | undefined;
  let stopPoolKeeper: (() => Promise<void>) | undefined;
  try {
    process.env.MASTER_KEY = masterKey; // the solana mint authority is registered encrypted under it
    resetConfig();
    chains = await startTestChains(database.url);
    stopPoolKeeper = await startAddressPoolKeeper(database.url);
    servers.push(...(await Promise.all([spawnWebServer(root, env), spawnWebServer(root, env)])));
  } catch (err) {
    await Promise.all(servers.map((s) => s.stop()));
    await stopPoolKeeper?.();
    await chains?.stop();
    await database.drop();
    throw err;
  }
  project.provide("databaseUrl", database.url);
  project.provide(
    "webUrls",
    servers.map((s) => s.url),
  );
  project.provide("redisKeyPrefix", redisKeyPrefix);
  project.provide("masterKey", masterKey);

  return async () => {
    await Promise.all(servers.map((s) => s.stop()));
    await stopPoolKeeper?.();
    await chains?.stop();
    await database.drop();
  };
}
