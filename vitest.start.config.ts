import path from "node:path";
import { defineConfig } from "vitest/config";

// Start tests (tests/start/): `npm start`, the worker and the supervisor as an operator runs them, each test with
// its own processes and databases (embedded PostgreSQL, anvil), killed and restarted for real. They need none
// of the suite's stack (no global setup) and do not depend on the run's database or rate-limit store, so CI
// runs them once.
export default defineConfig({
  resolve: { alias: { "@": path.resolve(import.meta.dirname) } },
  test: {
    include: ["tests/start/**/*.test.ts"],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: "forks",
    // A focused test (`.only`) is an error, not a quiet narrowing of the run (scripts/lib/test-verdict.ts).
    allowOnly: false,
    maxWorkers: 3,
  },
});
