import { config } from "@/lib/config/env";

export type CrashPoint = "after_sign" | "after_broadcast";

/**
 * Crash tests (OUTBOUND_CRASH_AT, tests only): the process kills itself with SIGKILL at this point, as a
 * power cut would, so a test can prove that what was committed before it is enough to finish the job.
 */
export function crashPoint(point: CrashPoint): void {
  if (config().outboundCrashAt === point) process.kill(process.pid, "SIGKILL");
}
