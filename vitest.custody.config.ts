import path from "node:path";
import { defineConfig } from "vitest/config";

// Custody tests (tests/custody/): the service's own transactions, sweeps and reconciliation. They run after
// the main suite on chains of their own, since they run the chain watchers and outbound leaders of the
// chains they use: each file owns its chains (see tests/custody/README.md), all five at once (most of their
// time is spent waiting for blocks and confirmations: 409 s at five against about 690 s at three, measured).
export default defineConfig({
  resolve: { alias: { "@": path.resolve(import.meta.dirname) } },
  test: {
    include: ["tests/custody/**/*.test.ts"],
    globalSetup: ["tests/setup/global-setup.ts"],
    setupFiles: ["tests/setup/worker-env.ts"],
    testTimeout: 60_000,
    hookTimeout: 150_000,
    pool: "forks",
    // A focused test (`.only`) is an error, not a quiet narrowing of the run (scripts/lib/test-verdict.ts).
    allowOnly: false,
    maxWorkers: 5,
  },
});
