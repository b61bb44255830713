// `npm test`: builds the app if its sources changed, runs the whole suite (vitest) against real Postgres
// (embedded, or DATABASE_URL's server), and closes with one plain "N passed, N failed" line.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { ensureNextBuild } from "./lib/ensure-build";

const root = process.cwd();
ensureNextBuild(root);

const report = path.join(os.tmpdir(), `vitest-report-${process.pid}.json`);
const args = ["run", "--reporter=default", "--reporter=json", `--outputFile.json=${report}`, ...process.argv.slice(2)];
const run = spawnSync(path.join(root, "node_modules", ".bin", "vitest"), args, { cwd: root, stdio: "inherit", env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1" } });

let summary = "tests: 0 passed, 0 failed";
try {
  const result = JSON.parse(fs.readFileSync(report, "utf8")) as { numPassedTests: number; numFailedTests: number; numPendingTests: number; numTodoTests: number };
  summary = `tests: ${result.numPassedTests} passed, ${result.numFailedTests} failed, ${result.numPendingTests + result.numTodoTests} skipped`;
  fs.rmSync(report, { force: true });
} catch {
  /* vitest failed before writing a report; its exit code below says so */
}
console.log(summary);
process.exit(run.status ?? 1);
