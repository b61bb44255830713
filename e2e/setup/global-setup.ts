import type { TestProject } from "vitest/node";
import { setupRun } from "@/tests/setup/global-setup";

// The suite's stack, with the web instances behind a "proxy": each browser test sends its own
// X-Forwarded-For and so has its own 30/min budget of public page requests.
export default function setup(project: TestProject) {
  return setupRun(project, { trustProxy: true });
}
