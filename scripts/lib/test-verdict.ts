// What `npm test` concludes from vitest's JSON reports. A skipped or to-do test fails the run unless the
// run was narrowed by name (`-t`), where vitest reports every other test as skipped: a suite that lands
// green with a `.skip` in it has silently stopped proving something.

export interface VitestReport {
  numPassedTests: number;
  numFailedTests: number;
  numPendingTests: number;
  numTodoTests: number;
  testResults: {
    name: string;
    status: string;
    message?: string;
    startTime?: number;
    endTime?: number;
    assertionResults: { status: string; fullName?: string; duration?: number; failureMessages?: string[] }[];
  }[];
}

export interface Totals {
  passed: number;
  failed: number;
  skipped: number;
}

export function totalsOf(report: VitestReport): Totals {
  // A file whose setup failed reports its tests as skipped, not failed: count them as failed so a browser
  // that cannot start (say) never reads as "0 failed".
  const brokenFiles = report.testResults.filter(
    (f) => f.status === "failed" && !f.assertionResults.some((a) => a.status === "failed"),
  );
  const unrun = brokenFiles.reduce((n, f) => n + Math.max(1, f.assertionResults.length), 0);
  const unrunSkipped = brokenFiles.reduce((n, f) => n + f.assertionResults.length, 0);
  return {
    passed: report.numPassedTests,
    failed: report.numFailedTests + unrun,
    skipped: report.numPendingTests + report.numTodoTests - unrunSkipped,
  };
}

/**
 * One line per failed test (or per file that failed before its tests ran), so the end of a long CI log names
 * what failed without scrolling back through every phase's output.
 */
export function failuresOf(report: VitestReport, root: string): string[] {
  const firstLine = (text: string | undefined) => (text ?? "").split("\n")[0]!.slice(0, 300);
  return report.testResults.flatMap((file) => {
    const where = file.name.startsWith(root) ? file.name.slice(root.length + 1) : file.name;
    const failed = file.assertionResults.filter((a) => a.status === "failed");
    // vitest's JSON report keeps no message for a timeout, only a placeholder stack: say what it was.
    const why = (a: (typeof failed)[number]) => {
      const line = firstLine(a.failureMessages?.[0]);
      return line.includes("STACK_TRACE_ERROR") ? `timed out (after ${Math.round(a.duration ?? 0)} ms)` : line;
    };
    if (failed.length) return failed.map((a) => `FAILED ${where} > ${a.fullName}: ${why(a)}`);
    return file.status === "failed" ? [`FAILED ${where}: ${firstLine(file.message)}`] : [];
  });
}

/** Each file's wall time (ms) as the report gives it: what a slow file costs its phase. */
export function fileDurationsOf(report: VitestReport, root: string): { file: string; ms: number }[] {
  return report.testResults
    .filter((f) => f.startTime !== undefined && f.endTime !== undefined)
    .map((f) => ({
      file: f.name.startsWith(root) ? f.name.slice(root.length + 1) : f.name,
      ms: f.endTime! - f.startTime!,
    }));
}

/** The `count` slowest files, one line each, slowest first. */
export function slowestFiles(files: { file: string; ms: number }[], count = 20): string[] {
  return [...files]
    .sort((a, b) => b.ms - a.ms)
    .slice(0, count)
    .map((f) => `  ${(f.ms / 1000).toFixed(1).padStart(7)} s  ${f.file}`);
}

export const NAME_FILTERS = ["-t", "--testNamePattern"];

export function isNarrowedByName(flags: string[]): boolean {
  return flags.some((f) => NAME_FILTERS.includes(f) || f.startsWith("--testNamePattern="));
}

/** Why the run fails, or null when it passes. */
export function verdict(runs: { status: number; totals: Totals | null }[], narrowedByName: boolean): string | null {
  if (runs.some((r) => r.totals === null)) return "a phase ended before vitest wrote its report";
  // A run that found no test did not run what it was asked to (seen: a file run beside its phase whose vitest
  // met a port taken at its start, said "No test files found" and exited 0).
  if (!narrowedByName && runs.some((r) => r.totals!.passed + r.totals!.failed + r.totals!.skipped === 0))
    return "a phase, or a file run beside one, ran no test";
  const failed = runs.reduce((n, r) => n + r.totals!.failed, 0);
  if (failed > 0) return `${failed} failed`;
  const skipped = runs.reduce((n, r) => n + r.totals!.skipped, 0);
  if (skipped > 0 && !narrowedByName) return `${skipped} skipped (a skipped or to-do test fails the run)`;
  if (runs.some((r) => r.status !== 0)) return "vitest exited with an error";
  return null;
}
