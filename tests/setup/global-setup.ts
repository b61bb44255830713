import path from "node:path";
import type { TestProject } from "vitest/node";
import type { SpawnedWebServer } from "@/scripts/lib/spawn-web";
import { type StackContext, startTestStack, startWebServers } from "./test-stack";

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

/** The run's stack (tests/setup/test-stack.ts) and its two web instances, for the whole run. */
export async function setupRun(project: TestProject, opts: { trustProxy?: boolean; mainnetFinality?: boolean }) {
  const root = path.resolve(import.meta.dirname, "../..");
  const stack = await startTestStack(root, { mainnetFinality: opts.mainnetFinality });
  let servers: SpawnedWebServer[];
  try {
    servers = await startWebServers(root, stack.context, opts);
  } catch (err) {
    await stack.stop();
    throw err;
  }
  provideStack(project, stack.context, servers);
  return async () => {
    await Promise.all(servers.map((s) => s.stop()));
    await stack.stop();
  };
}

/** What each test worker injects (tests/setup/worker-env.ts). */
export function provideStack(project: TestProject, context: StackContext, servers: SpawnedWebServer[]) {
  project.provide("databaseUrl", context.databaseUrl);
  project.provide(
    "webUrls",
    servers.map((s) => s.url),
  );
  project.provide("redisKeyPrefix", context.redisKeyPrefix);
  project.provide("masterKey", context.masterKey);
}
