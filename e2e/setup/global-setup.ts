import type { TestProject } from "vitest/node";
import { setupRun } from "@/tests/setup/global-setup";

// The suite's stack, with the web instances behind a "proxy": each browser test sends its own
// X-Forwarded-For and so has its own 30/min budget of public page requests; its tron and solana finalize at
// mainnet's depths (the pages show "n of 19 network confirmations" and the tests mine to finish).
export default function setup(project: TestProject) {
  return setupRun(project, { trustProxy: true, mainnetFinality: true });
}
