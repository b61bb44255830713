import type { Chain } from "@/lib/kernel/chain-ids";
import type { OutboundPurpose } from "@/lib/kernel/outbound-purposes";
import { config } from "@/lib/platform/config/env";

export type CrashPoint = "after_sign" | "after_broadcast";

/**
 * Crash tests (OUTBOUND_CRASH_AT, tests only): the process kills itself with SIGKILL at this point, as a
 * power cut would, so a test can prove that what was committed before it is enough to finish the job.
 * OUTBOUND_CRASH_CHAINS narrows it to some chains, so a worker running all five dies on the one under test
 * while the others keep sending; OUTBOUND_CRASH_PURPOSES to some purposes (a sweep, after its energy was lent).
 */
export function crashPoint(point: CrashPoint, intent: { chain: Chain; purpose: OutboundPurpose }): void {
  const { outboundCrashAt, outboundCrashChains, outboundCrashPurposes } = config();
  if (outboundCrashAt !== point) return;
  if (outboundCrashChains && !outboundCrashChains.includes(intent.chain)) return;
  if (outboundCrashPurposes && !outboundCrashPurposes.includes(intent.purpose)) return;
  process.kill(process.pid, "SIGKILL");
}
