import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import {
  failuresOf,
  fileDurationsOf,
  isNarrowedByName,
  slowestFiles,
  totalsOf,
  verdict,
} from "../../scripts/lib/test-verdict";
import crashConfig from "../../vitest.crash.config";
import custodyConfig from "../../vitest.custody.config";
import suiteConfig from "../../vitest.config";
import startConfig from "../../vitest.start.config";
import e2eConfig from "../../vitest.e2e.config";

const root = path.resolve(import.meta.dirname, "../..");
const report = (passed: number, failed: number, pending: number, todo = 0) => ({
  numPassedTests: passed,
  numFailedTests: failed,
  numPendingTests: pending,
  numTodoTests: todo,
  testResults: [],
});

describe("npm test's verdict", () => {
  it("fails a run with a skipped or to-do test, unless the run was narrowed by name", () => {
    const ok = { status: 0, totals: totalsOf(report(10, 0, 0)) };
    const skipped = { status: 0, totals: totalsOf(report(10, 0, 1)) };
    const todo = { status: 0, totals: totalsOf(report(10, 0, 0, 1)) };
    expect(verdict([ok], false)).toBeNull();
    expect(verdict([ok, skipped], false)).toMatch(/1 skipped/);
    expect(verdict([todo], false)).toMatch(/1 skipped/);
    expect(verdict([skipped], isNarrowedByName(["-t", "refunds"]))).toBeNull();
    expect(verdict([skipped], isNarrowedByName(["--testNamePattern=refunds"]))).toBeNull();
    expect(verdict([skipped], isNarrowedByName(["--bail"]))).toMatch(/skipped/);
  });

  it("fails on a failure, a missing report or a vitest error, and counts a broken file's tests as failed", () => {
    expect(verdict([{ status: 1, totals: totalsOf(report(3, 1, 0)) }], false)).toBe("1 failed");
    expect(verdict([{ status: 1, totals: null }], false)).toMatch(/report/);
    expect(
      verdict(
        [
          { status: 0, totals: totalsOf(report(3, 0, 0)) },
          { status: 0, totals: totalsOf(report(0, 0, 0)) },
        ],
        false,
      ),
    ).toMatch(/ran no test/);
    expect(verdict([{ status: 1, totals: totalsOf(report(3, 0, 0)) }], false)).toMatch(/exited/);
    const broken = totalsOf({
      ...report(0, 0, 2),
      testResults: [
        { name: "/r/a.test.ts", status: "failed", assertionResults: [{ status: "skipped" }, { status: "skipped" }] },
      ],
    });
    expect(broken).toEqual({ passed: 0, failed: 2, skipped: 0 });
  });

  it("names each failed test, and each file that failed before its tests ran, with its first error line", () => {
    const failures = failuresOf(
      {
        ...report(1, 1, 0),
        testResults: [
          {
            name: "/r/tests/a.test.ts",
            status: "failed",
            assertionResults: [
              { status: "passed", fullName: "a works" },
              { status: "failed", fullName: "a pays once", failureMessages: ["AssertionError: 2 !== 1\n    at x"] },
              {
                status: "failed",
                fullName: "a waits",
                duration: 30012.4,
                failureMessages: ["Error: STACK_TRACE_ERROR\n    at task (runner.js:1:1)"],
              },
            ],
          },
          {
            name: "/r/e2e/b.test.ts",
            status: "failed",
            message: "Chromium did not start\nstack",
            assertionResults: [],
          },
          { name: "/r/tests/c.test.ts", status: "passed", assertionResults: [{ status: "passed" }] },
        ],
      },
      "/r",
    );
    expect(failures).toEqual([
      "FAILED tests/a.test.ts > a pays once: AssertionError: 2 !== 1",
      "FAILED tests/a.test.ts > a waits: timed out (after 30012 ms)",
      "FAILED e2e/b.test.ts: Chromium did not start",
    ]);
  });

  it("every phase refuses a focused test", () => {
    for (const config of [suiteConfig, startConfig, custodyConfig, e2eConfig, crashConfig]) {
      expect(config.test?.allowOnly).toBe(false);
    }
  });
});

describe("lint", () => {
  // The repository's own biome.json, applied to probe files laid out as the repository's tests are.
  const lint = (file: string, source: string) => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "lint-probe-"));
    const config = JSON.parse(fs.readFileSync(path.join(root, "biome.json"), "utf8"));
    delete config.$schema;
    config.vcs = { enabled: false };
    fs.writeFileSync(path.join(dir, "biome.json"), JSON.stringify(config));
    fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    fs.writeFileSync(path.join(dir, file), source);
    const run = spawnSync(path.join(root, "node_modules", ".bin", "biome"), ["lint", file], {
      cwd: dir,
      encoding: "utf8",
    });
    fs.rmSync(dir, { recursive: true, force: true });
    return run;
  };

  it("refuses .skip, .only and describe.skip in tests and browser tests", () => {
    for (const file of ["tests/api/probe.test.ts", "e2e/probe.test.ts"]) {
      for (const call of ['it.skip("a", () => {});', 'it.only("a", () => {});', 'describe.skip("a", () => {});']) {
        const run = lint(file, `import { describe, it } from "vitest";\n\ndescribe("b", () => {});\n${call}\n`);
        expect(run.status, `${file}: ${call}`).not.toBe(0);
        expect(run.stdout + run.stderr).toMatch(/noSkippedTests|noFocusedTests/);
      }
    }
    const clean = lint("tests/api/probe.test.ts", 'import { it } from "vitest";\n\nit("a", () => {});\n');
    expect(clean.status, clean.stdout + clean.stderr).toBe(0);
  });
});

describe("the slowest files", () => {
  it("are each file's wall time from the report, relative to the tree, slowest first, at most 20", () => {
    const files = Array.from({ length: 25 }, (_, i) => ({
      name: `/repo/tests/f${i}.test.ts`,
      status: "passed",
      assertionResults: [],
      startTime: 1_000,
      endTime: 1_000 + (i + 1) * 1_500,
    }));
    const durations = fileDurationsOf({ ...report(1, 0, 0), testResults: files }, "/repo");
    expect(durations[0]).toEqual({ file: "tests/f0.test.ts", ms: 1_500 });
    const lines = slowestFiles(durations);
    expect(lines).toHaveLength(20);
    expect(lines[0]).toBe("     37.5 s  tests/f24.test.ts");
    expect(lines[19]).toBe("      9.0 s  tests/f5.test.ts");
  });
});
