import path from "node:path";
import { defineConfig } from "vitest/config";

// Crash tests under load (tests/crash/): one worker process running every chain's watcher and outbound
// leader, SIGKILLed while payouts go through. They own all five sandbox chains, so they run last, in a stack
// (database, chains, web instances) of their own, one file at a time.
export default defineConfig({
  resolve: { alias: { "@": path.resolve(import.meta.dirname) } },
  test: {
    include: ["tests/crash/**/*.test.ts"],
    globalSetup: ["tests/setup/global-setup.ts"],
    setupFiles: ["tests/setup/worker-env.ts"],
    testTimeout: 60_000,
    hookTimeout: 240_000,
    pool: "forks",
    // A focused test (`.only`) is an error, not a quiet narrowing of the run (scripts/lib/test-verdict.ts).
    allowOnly: false,
    maxWorkers: 1,
  },
});
