import { config } from "@/lib/platform/config/env";

/**
 * Crash tests (WATCH_CRASH_AT, tests only; refused with live chains): a watcher SIGKILLs itself in a scan that
 * recorded deposits, inside its transaction (`before_commit`: nothing of the range was written) or just after it
 * (`after_commit`: the range is written, the process dies before its next step), as a power cut would.
 */
export function scanCrashPoint(point: "before_commit" | "after_commit", deposits: number): void {
  if (deposits > 0 && config().watchCrashAt === point) process.kill(process.pid, "SIGKILL");
}
