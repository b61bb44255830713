// `npm test`: builds the app if its sources changed, runs the whole suite (vitest) against real Postgres
// (embedded, or DATABASE_URL's server), the start tests (tests/start/), the custody tests (tests/custody/), the
// browser tests in e2e/ and the crash tests under load (tests/crash/), in two lanes side by side on a PostgreSQL
// server (LANES below), and closes with one plain "N passed, N failed" line for all.
// `npm test -- <files>` runs only the named files, each with its phase's configuration.
import path from "node:path";
import { ensureNextBuild } from "./lib/ensure-build";
import { measureCpuBusy } from "./lib/cpu-busy";
import { bundleEntries } from "./lib/entry-bundles";
import { isNarrowedByName, slowestFiles, verdict } from "./lib/test-verdict";
import { type Run, runVitest } from "./lib/vitest-run";

const root = process.cwd();
// Without Next's TypeScript pass: `npm run typecheck` checks the whole project (CI runs it before the tests).
ensureNextBuild(root, console.log, { typeCheck: false });
// The processes the tests start (workers, web servers, npm start's children) run from bundles of this tree.
process.env.ENTRY_BUNDLES = bundleEntries(root);

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
const held: string[] = [];
const began = Date.now();
const CONFIGS: Record<string, string> = {
  suite: "vitest.config.ts",
  start: "vitest.start.config.ts",
  custody: "vitest.custody.config.ts",
  e2e: "vitest.e2e.config.ts",
  crash: "vitest.crash.config.ts",
};
// Each phase but start runs on a stack of its own (database, chains, web instances, from its global setup), so
// phases need not wait for each other, only for the CPU. On a PostgreSQL server two lanes run side by side: the
// suite, custody and browser phases in order, and beside them the start and crash phases (mostly waiting for
// processes to start, die and restart: 60-70 % of two cores busy alone, measured). On the embedded database the
// phases run one after another: two runs cannot share it (the run that started it stops it at its end).
const LANES = process.env.DATABASE_URL
  ? [
      ["suite", "custody", "e2e"],
      ["start", "crash"],
    ]
  : [ALL_PHASES];
// A file that outlasts the rest of its phase by minutes runs beside it, in a vitest run and stack of its own, and
// on into the next phase: tron-outbound waits for Tron's 19-block solidification test after test. Only on a
// PostgreSQL server, as the lanes.
const BESIDE: Record<string, string[]> = { custody: ["tests/custody/tron-outbound.test.ts"] };
const besides: Promise<Run>[] = [];
const seconds = (ms: number) => Math.round(ms / 1000);

async function phase(name: string, output: "live" | "held"): Promise<void> {
  if (!wanted.has(name)) return;
  const started = Date.now();
  const config = CONFIGS[name]!;
  const beside = !files.length && process.env.DATABASE_URL ? (BESIDE[name] ?? []) : [];
  for (const file of beside) {
    const label = `${name} ${path.basename(file, ".test.ts")}`;
    besides.push(
      runVitest(root, config, [file, ...flags], label, "held").then(({ endedAt, held: out, ...run }) => {
        held.push(out);
        durations.push(`${label} ${seconds(endedAt - started)} s (from ${seconds(started - began)} s)`);
        return run;
      }),
    );
  }
  const busy = measureCpuBusy();
  const excluded = beside.flatMap((file) => ["--exclude", file]);
  const { held: out, endedAt, ...run } = await runVitest(root, config, [...only(name), ...excluded], name, output);
  if (out) held.push(out);
  runs.push(run);
  durations.push(`${name} ${seconds(endedAt - started)} s (from ${seconds(started - began)} s, CPU ${busy()} % busy)`);
}

// The first lane with a phase to run writes as it goes; the others' output is printed once all are done.
const live = LANES.findIndex((lane) => lane.some((name) => wanted.has(name)));
await Promise.all(
  LANES.map(async (lane, i) => {
    for (const name of lane) await phase(name, i === live ? "live" : "held");
  }),
);
runs.push(...(await Promise.all(besides)));
for (const out of held) process.stdout.write(out);
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
