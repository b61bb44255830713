import { inTransaction, type Db } from "@/lib/platform/db/client";
import { STEP_UP_MESSAGE } from "./step-up-message";
import { type Actor, recordAudit } from "./audit";
import { verifySecondFactorCode } from "./factors/second-factor";
import { markSecondFactor } from "./sessions";
import { ipLimitKey } from "@/lib/platform/client-ip";
import { lockAttempts, recordSignInAttempt } from "./sign-in-attempts";
import { signInWaitMs } from "./sign-in-limits";

/**
 * Step-up (docs/DASHBOARD.md#step-up): live API keys, live webhook endpoints, creating and approving
 * payouts, and removing a second factor need a second factor proved by this session within 5 minutes.
 */
export const STEP_UP_WINDOW_MS = 5 * 60_000;

export { STEP_UP_MESSAGE };

export class StepUpRequiredError extends Error {
  constructor() {
    super(STEP_UP_MESSAGE);
  }
}

export function hasFreshStepUp(user: { secondFactorAt?: Date | null }, nowMs = Date.now()): boolean {
  return Boolean(user.secondFactorAt) && nowMs - user.secondFactorAt!.getTime() < STEP_UP_WINDOW_MS;
}

/** Throws StepUpRequiredError unless this session proved a second factor within the window. */
export function requireStepUp(user: { secondFactorAt?: Date | null }): void {
  if (!hasFreshStepUp(user)) throw new StepUpRequiredError();
}

export type StepUpResult =
  | { ok: true }
  | { ok: false; reason: "invalid" }
  | { ok: false; reason: "limited"; waitMs: number };

/**
 * Proves a second factor for this session with a typed code, under the code limit (5 wrong codes hold the
 * account's code entry, from every client, so step-up cannot be used to guess codes), audited. Others'
 * wrong passwords do not block it.
 */
export async function stepUpWithCode(
  db: Db,
  actor: Actor & { userId: string },
  input: { email: string; sessionId: string; code: string },
): Promise<StepUpResult> {
  const email = input.email.trim().toLowerCase();
  const ip = actor.ip ?? "unknown";
  const who = { email, ip, clientKey: ipLimitKey(ip) };
  return inTransaction(db, async (tx) => {
    await lockAttempts(tx, who);
    const waitMs = await signInWaitMs(tx, who, ["code"]);
    if (waitMs > 0) return { ok: false, reason: "limited", waitMs };
    const factor = await verifySecondFactorCode(tx, actor.userId, input.code);
    await recordSignInAttempt(tx, who, "code", Boolean(factor));
    if (!factor) return { ok: false, reason: "invalid" };
    await markSecondFactor(tx, input.sessionId);
    await recordAudit(tx, actor, {
      action: "user.stepped_up",
      target: input.sessionId,
      details: { second_factor: factor },
    });
    return { ok: true };
  });
}
