import path from "node:path";
import { defineConfig } from "vitest/config";

export default defineConfig({
  resolve: { alias: { "@": path.resolve(import.meta.dirname) } },
  test: {
    include: ["tests/**/*.test.ts"],
    // Their own phases, after this one (vitest.start.config.ts: processes and databases of their own;
    // vitest.custody.config.ts, vitest.crash.config.ts: they own chains' leaders while they run).
    exclude: ["tests/start/**", "tests/custody/**", "tests/crash/**", "**/node_modules/**"],
    globalSetup: ["tests/setup/global-setup.ts"],
    setupFiles: ["tests/setup/worker-env.ts"],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: "forks",
    // Files share their worker's modules (tests/setup/worker-env.ts resets the environment and configuration for
    // each): loading the domain once per worker instead of once per file took the suite from about 11 to 7 min.
    isolate: false,
    // A focused test (`.only`) is an error, not a quiet narrowing of the run (scripts/lib/test-verdict.ts).
    allowOnly: false,
    maxWorkers: 2,
  },
});
