import { inTransaction, type Db } from "@/lib/db/client";
import { STEP_UP_MESSAGE } from "./step-up-message";
import { execute } from "@/lib/db/query";
import { type Actor, recordAudit } from "./audit";
import { verifySecondFactorCode } from "./factors/second-factor";
import { markSecondFactor } from "./sessions";
import { signInWaitMs } from "./sign-in-limits";
import { recordSignInAttempt } from "./sign-in";

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
 * Proves a second factor for this session with a typed code, under the sign-in limits (a wrong code is a
 * failed attempt of the account, so step-up cannot be used to guess codes), audited.
 */
export async function stepUpWithCode(
  db: Db,
  actor: Actor & { userId: string },
  input: { email: string; sessionId: string; code: string },
): Promise<StepUpResult> {
  const email = input.email.trim().toLowerCase();
  const ip = actor.ip ?? "unknown";
  return inTransaction(db, async (tx) => {
    await execute(tx, "select pg_advisory_xact_lock(hashtext('sign_in:' || $1))", [email]);
    const waitMs = await signInWaitMs(tx, email, ip);
    if (waitMs > 0) return { ok: false, reason: "limited", waitMs };
    const factor = await verifySecondFactorCode(tx, actor.userId, input.code);
    await recordSignInAttempt(tx, email, ip, Boolean(factor));
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
