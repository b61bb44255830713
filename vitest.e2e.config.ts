import path from "node:path";
import { defineConfig } from "vitest/config";

// Browser tests (Playwright driving Debian's Chromium) against the same real stack as the suite: run after
// it by `npm test`, two files at a time (a browser per file; pages share the run's chains, and each file
// works with merchants and users of its own, so none waits on another's).
export default defineConfig({
  resolve: { alias: { "@": path.resolve(import.meta.dirname) } },
  test: {
    include: ["e2e/**/*.test.ts"],
    globalSetup: ["e2e/setup/global-setup.ts"],
    setupFiles: ["tests/setup/worker-env.ts"],
    testTimeout: 90_000,
    hookTimeout: 90_000,
    pool: "forks",
    // Files share their worker's modules, as the suite's do (tests/setup/worker-env.ts resets the environment for
    // each): playwright-core and the domain load once per worker, not per file (36 s of a run's CPU).
    isolate: false,
    // A focused test (`.only`) is an error, not a quiet narrowing of the run (scripts/lib/test-verdict.ts).
    allowOnly: false,
    maxWorkers: 2,
  },
});
