import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { failuresOf, fileDurationsOf, type Totals, totalsOf, type VitestReport } from "./test-verdict";

export type Run = { status: number; totals: Totals | null; failures: string[]; files: { file: string; ms: number }[] };

/**
 * One vitest run (`vitest run --config <config> <args>`), with a JSON report read back into totals, failures and
 * each file's time. `output: "live"` writes to this terminal as it goes; `"held"` keeps the output in a file and
 * returns it, for runs beside the live one (their lines would interleave), printed once that one is done.
 */
export function runVitest(
  root: string,
  config: string,
  args: string[],
  label: string,
  output: "live" | "held",
): Promise<Run & { endedAt: number; held: string }> {
  const report = path.join(os.tmpdir(), `vitest-report-${process.pid}-${label.replace(/\W+/g, "-")}.json`);
  const log = report.replace(/\.json$/, ".log");
  const out = output === "held" ? fs.openSync(log, "w") : "inherit";
  const child = spawn(
    path.join(root, "node_modules", ".bin", "vitest"),
    ["run", "--config", config, "--reporter=default", "--reporter=json", `--outputFile.json=${report}`, ...args],
    { cwd: root, stdio: ["ignore", out, out], env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1" } },
  );
  if (typeof out === "number") fs.closeSync(out);
  return new Promise((resolve) => {
    const done = (status: number | null, started: boolean) => {
      const endedAt = Date.now();
      let held = "";
      if (output === "held") {
        held = `\n== ${label} (ran beside)\n${fs.readFileSync(log, "utf8")}`;
        fs.rmSync(log, { force: true });
      }
      const run = readReport(root, report, status);
      if (!started) run.failures.push(`${label}: vitest did not start`);
      resolve({ ...run, endedAt, held });
    };
    child.once("error", () => done(1, false));
    child.once("exit", (code) => done(code, true));
  });
}

function readReport(root: string, report: string, status: number | null): Run {
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
