// `npm run test:quick -- <files or folders>`: the named suite tests against the stack `npm run test:stack` keeps
// running (no database, migrations or chains to start), with two web instances of this tree started for the run.
// The app is built first if its sources changed, as `npm test` does.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { ensureNextBuild } from "./lib/ensure-build";
import { bundleEntries } from "./lib/entry-bundles";
import { readStackFile } from "@/tests/setup/stack-file";

const root = process.cwd();
const args = process.argv.slice(2);
if (!args.some((a) => !a.startsWith("-"))) {
  console.error("Name the tests to run: npm run test:quick -- tests/refunds tests/api/auth.test.ts");
  process.exit(2);
}
const started = Date.now();
// Before building anything: without a running stack there is nothing to run against.
try {
  readStackFile(root);
} catch (err) {
  console.error((err as Error).message);
  process.exit(1);
}
ensureNextBuild(root, console.log, { typeCheck: false });
process.env.ENTRY_BUNDLES = bundleEntries(root);
const vitest = path.join(root, "node_modules", ".bin", "vitest");
const report = path.join(os.tmpdir(), `vitest-quick-${process.pid}.json`);
const reporters = ["--reporter=default", "--reporter=json", `--outputFile.json=${report}`];
const run = spawnSync(vitest, ["run", "--config", "vitest.quick.config.ts", ...reporters, ...args], {
  cwd: root,
  stdio: "inherit",
  env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1" },
});
console.log(`test:quick took ${((Date.now() - started) / 1000).toFixed(1)} s`);
// vitest exits 0 when its global setup throws: the report says whether tests ran, and how they ended.
let passed = false;
try {
  const result = JSON.parse(fs.readFileSync(report, "utf8")) as { numTotalTests: number; numFailedTests: number };
  passed = run.status === 0 && result.numTotalTests > 0 && result.numFailedTests === 0;
  fs.rmSync(report, { force: true });
} catch {
  /* no report: vitest stopped before running anything */
}
process.exit(passed ? 0 : 1);
