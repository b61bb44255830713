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
});
