// `npm test`: builds the app if its sources changed, runs the whole suite (vitest) against real Postgres
// (embedded, or DATABASE_URL's server), then the start tests (tests/start/), the custody tests (tests/custody/),
// the browser tests in e2e/, then the crash tests under load (tests/crash/), and closes with one plain
// "N passed, N failed" line for all (a file that outlasts its phase runs beside the next one: BESIDE below).
// `npm test -- <files>` runs only the named files, each with its phase's configuration.
import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { ensureNextBuild } from "./lib/ensure-build";
import { measureCpuBusy } from "./lib/cpu-busy";
import { bundleEntries } from "./lib/entry-bundles";
import {
  failuresOf,
  fileDurationsOf,
  isNarrowedByName,
  slowestFiles,
  type Totals,
  totalsOf,
  type VitestReport,
  verdict,
} from "./lib/test-verdict";

const root = process.cwd();
// Without Next's TypeScript pass: `npm run typecheck` checks the whole project (CI runs it before the tests).
ensureNextBuild(root, console.log, { typeCheck: false });
// The processes the tests start (workers, web servers, npm start's children) run from bundles of this tree.
process.env.ENTRY_BUNDLES = bundleEntries(root);

type Run = { status: number; totals: Totals | null; failures: string[]; files: { file: string; ms: number }[] };

const vitestArgs = (config: string, report: string, args: string[]) => [
  "run",
  "--config",
  config,
  "--reporter=default",
  "--reporter=json",
  `--outputFile.json=${report}`,
  ...args,
];
const reportFile = (label: string) => path.join(os.tmpdir(), `vitest-report-${process.pid}-${label}.json`);
const vitestBin = path.join(root, "node_modules", ".bin", "vitest");
const vitestEnv = { ...process.env, NEXT_TELEMETRY_DISABLED: "1" };

function readReport(report: string, status: number | null): Run {
  let totals: Totals | null = null;
  let failures: string[] = [];
  let files: Run["files"] = [];
  try {
    const parsed = JSON.parse(fs.readFileSync(report, "utf8")) as VitestReport;
    totals = totalsOf(parsed);
    failures = failuresOf(parsed, root);
    files = fileDurationsOf(parsed, root);
    fs.rmSync(report, { force: true });
  } catch {
    /* vitest failed before writing a report; its exit code says so */
  }
  return { status: status ?? 1, totals, failures, files };
}

function runVitest(config: string, args: string[]): Run {
  const report = reportFile(path.basename(config));
  const run = spawnSync(vitestBin, vitestArgs(config, report, args), { cwd: root, stdio: "inherit", env: vitestEnv });
  return readReport(report, run.status);
}

/**
 * A vitest run beside the phases that follow (its own database, chains and web instances, from its global setup):
 * its output goes to a file, printed once it ends, so the runs' lines do not interleave. A file, not a pipe: the
 * phases' spawnSync blocks this process, which could not drain a pipe meanwhile.
 */
function runVitestBeside(config: string, args: string[], label: string): Promise<Run & { endedAt: number }> {
  const report = reportFile(label);
  const log = path.join(os.tmpdir(), `vitest-output-${process.pid}-${label}.log`);
  const out = fs.openSync(log, "w");
  const child = spawn(vitestBin, vitestArgs(config, report, args), {
    cwd: root,
    stdio: ["ignore", out, out],
    env: vitestEnv,
  });
  fs.closeSync(out);
  return new Promise((resolve) => {
    child.once("error", () =>
      resolve({
        status: 1,
        totals: null,
        failures: [`${label}: vitest did not start`],
        files: [],
        endedAt: Date.now(),
      }),
    );
    child.once("exit", (code) => {
      // Its exit is seen only once the phases' spawnSync let go: its output's last write says when it ended.
      const endedAt = fs.statSync(log).mtimeMs;
      console.log(`\n== ${label} (ran beside the phases after it)`);
      process.stdout.write(fs.readFileSync(log, "utf8"));
      fs.rmSync(log, { force: true });
      resolve({ ...readReport(report, code), endedAt });
    });
  });
}

const args = process.argv.slice(2);
// Flags that take the next argument as their value (`-t "a test name"`) keep it; everything else not
// starting with "-" is a file or directory.
const VALUED = new Set(["-t", "--testNamePattern", "--project", "--shard"]);
const files: string[] = [];
const flags: string[] = [];
// `--phases suite,custody` runs only those phases (CI runs the browser and crash phases once, not per database).
const chosen: string[] = [];
for (let i = 0; i < args.length; i++) {
  if (args[i] === "--phases" && i + 1 < args.length) chosen.push(...args[++i]!.split(",").filter(Boolean));
  else if (VALUED.has(args[i]!) && i + 1 < args.length) flags.push(args[i]!, args[++i]!);
  else if (args[i]!.startsWith("-")) flags.push(args[i]!);
  else files.push(args[i]!);
}
// Five phases: the suite, the start tests (npm start and its processes, each with databases of its own), the
// custody tests (which own chains' leaders, tests/custody/README.md), the browser tests, then the crash tests
// (one worker owning every chain); all but the start tests on a database and chains of their own. Named files
// run only the phases they belong to.
const PHASES: [string, string][] = [
  ["e2e", "e2e"],
  ["tests/start", "start"],
  ["tests/custody", "custody"],
  ["tests/crash", "crash"],
];
const phaseOf = (file: string) => PHASES.find(([prefix]) => file.startsWith(prefix))?.[1] ?? "suite";
const ALL_PHASES = ["suite", "start", "custody", "e2e", "crash"];
const unknown = chosen.filter((p) => !ALL_PHASES.includes(p));
if (unknown.length) {
  console.error(`--phases: unknown phase ${unknown.join(", ")} (phases: ${ALL_PHASES.join(", ")})`);
  process.exit(2);
}
const wanted = new Set(files.length ? files.map(phaseOf) : chosen.length ? chosen : ALL_PHASES);
const only = (phase: string) => [...files.filter((f) => phaseOf(f) === phase), ...flags];
const runs: Run[] = [];
const durations: string[] = [];
// A file that outlasts the rest of its phase by minutes runs beside it, in a vitest run and stack of its own, and
// on into the next phase: tron-outbound waits for Tron's 19-block solidification test after test (395 s, the
// custody phase's other files done by about 305 s, the machine mostly idle meanwhile). Only on a PostgreSQL
// server (DATABASE_URL): two runs cannot share the embedded one, which the run that started it stops at its end.
const BESIDE: Record<string, string[]> = { custody: ["tests/custody/tron-outbound.test.ts"] };
const besides: Promise<Run>[] = [];
const phase = (name: string, config: string) => {
  if (!wanted.has(name)) return;
  const started = Date.now();
  const beside = !files.length && process.env.DATABASE_URL ? (BESIDE[name] ?? []) : [];
  for (const file of beside) {
    const label = `${name} ${path.basename(file, ".test.ts")}`;
    besides.push(
      runVitestBeside(config, [file, ...flags], label).then(({ endedAt, ...run }) => {
        durations.push(`${label} ${Math.round((endedAt - started) / 1000)} s`);
        return run;
      }),
    );
  }
  const busy = measureCpuBusy();
  runs.push(runVitest(config, [...only(name), ...beside.flatMap((file) => ["--exclude", file])]));
  durations.push(`${name} ${Math.round((Date.now() - started) / 1000)} s (CPU ${busy()} % busy)`);
};
phase("suite", "vitest.config.ts");
phase("start", "vitest.start.config.ts");
phase("custody", "vitest.custody.config.ts");
phase("e2e", "vitest.e2e.config.ts");
phase("crash", "vitest.crash.config.ts");
runs.push(...(await Promise.all(besides)));
const timed = runs.flatMap((r) => r.files);
if (timed.length > 1) console.log(`slowest files:\n${slowestFiles(timed).join("\n")}`);
console.log(`phases: ${durations.join(", ")}`);

const sum = runs.reduce(
  (acc, r) => ({
    passed: acc.passed + (r.totals?.passed ?? 0),
    failed: acc.failed + (r.totals?.failed ?? 0),
    skipped: acc.skipped + (r.totals?.skipped ?? 0),
  }),
  { passed: 0, failed: 0, skipped: 0 },
);
for (const line of runs.flatMap((r) => r.failures)) console.log(line);
console.log(`tests: ${sum.passed} passed, ${sum.failed} failed, ${sum.skipped} skipped`);
const failure = verdict(runs, isNarrowedByName(flags));
if (failure) console.error(`npm test failed: ${failure}`);
process.exit(failure ? 1 : 0);
