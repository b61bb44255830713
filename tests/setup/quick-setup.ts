import fs from "node:fs";
import path from "node:path";
import type { TestProject } from "vitest/node";
import { provideStack } from "./global-setup";
import { readStackFile } from "./stack-file";
import { startWebServers } from "./test-stack";

/**
 * `npm run test:quick`'s global setup: the database and chains of the stack `npm run test:stack` keeps running
 * (tests/setup/stack-file.ts), and two web instances of this tree's build started for this run only, so the
 * code under test is the code on disk.
 */
export default async function setup(project: TestProject) {
  const root = path.resolve(import.meta.dirname, "../..");
  const stack = readStackFile(root);
  process.env.MASTER_KEY = stack.masterKey;
  fs.mkdirSync(path.join(root, ".data", "test"), { recursive: true });
  const servers = await startWebServers(root, stack);
  provideStack(project, stack, servers);
  return async () => {
    await Promise.all(servers.map((s) => s.stop()));
  };
}
