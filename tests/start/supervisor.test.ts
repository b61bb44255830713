import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { ProcessState } from "@/lib/platform/health/process-status";
import { SupervisedProcess } from "@/scripts/lib/supervisor";

// npm start's supervisor never gives up on a process that has been up (a worker crashing while the database is
// away must come back when it returns), and says what it is doing; one that never comes up fails the start.
const child = path.resolve(import.meta.dirname, "../fixtures/flaky-child.ts");

function supervise(env: Record<string, string>) {
  const seen: ProcessState[] = [];
  const supervised = new SupervisedProcess("flaky", child, { ...process.env, ...env }, (_n, s) => seen.push(s), 5);
  return { supervised, seen };
}

describe("the supervisor", () => {
  it("restarts a process that was up however often it dies, reporting each restart", async () => {
    const { supervised, seen } = supervise({});
    try {
      await supervised.ready;
      const deadline = Date.now() + 60_000;
      while (seen.filter((s) => s.state === "restarting").length < 8 && Date.now() < deadline)
        await new Promise((r) => setTimeout(r, 100));
      const restarts = seen.filter((s) => s.state === "restarting");
      expect(restarts.length).toBeGreaterThanOrEqual(8); // past the 5 tries a process that never came up gets
      expect(seen.some((s) => s.state === "failed")).toBe(false);
      expect(restarts.at(-1)).toMatchObject({ lastExit: "code 1" });
    } finally {
      await supervised.stop();
    }
    expect(supervised.state.state).toBe("stopped");
  }, 90_000);

  it("fails the start of a process that never comes up, after 5 tries", async () => {
    const { supervised, seen } = supervise({ FLAKY_NEVER_READY: "1" });
    await expect(supervised.ready).rejects.toThrow("flaky exited (code 1) 5 times in a row; giving up");
    expect(seen.at(-1)).toMatchObject({ state: "failed", restarts: 5 });
  }, 60_000);

  it("stops a process that ignores SIGTERM with SIGKILL, and the processes it started with it", async () => {
    const pidFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "usdt-stubborn-")), "pid");
    const stubborn = path.resolve(import.meta.dirname, "../fixtures/stubborn-parent.ts");
    const supervised = new SupervisedProcess("stubborn", stubborn, { ...process.env, STUBBORN_PID_FILE: pidFile });
    await supervised.ready;
    const grandchild = Number(fs.readFileSync(pidFile, "utf8"));
    const alive = (pid: number) => {
      try {
        process.kill(pid, 0);
        return !/^Z/.test(fs.readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1] ?? "");
      } catch {
        return false;
      }
    };
    expect(alive(grandchild)).toBe(true);
    const parent = supervised.pid!;
    await supervised.stop(500);
    const deadline = Date.now() + 5_000;
    while ((alive(grandchild) || alive(parent)) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    expect({ parent: alive(parent), grandchild: alive(grandchild) }).toEqual({ parent: false, grandchild: false });
  }, 30_000);
});
