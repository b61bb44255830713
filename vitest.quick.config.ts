import { defineConfig } from "vitest/config";
import suite from "./vitest.config";

// `npm run test:quick` (scripts/test-quick.ts): the suite's configuration, against the stack `npm run test:stack`
// keeps running instead of one started for the run.
export default defineConfig({ ...suite, test: { ...suite.test, globalSetup: ["tests/setup/quick-setup.ts"] } });
