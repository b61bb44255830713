import { inTransaction, type Db } from "@/lib/platform/db/client";
import { type Actor, recordAudit } from "../audit";
import { markSecondFactor, type SessionUser } from "../sessions";
import { requireStepUp } from "../step-up";
import { deleteRecoveryCodes, replaceRecoveryCodes } from "./recovery-codes";
import { hasSecondFactor } from "./second-factor";
import { checkTotpCode, deleteTotp } from "./totp";

type UserActor = Actor & { userId: string };

/**
 * Turns the pending authenticator app on with its first code; returns the new recovery codes (shown once).
 * Proving the code counts as this session's second factor. Null: the code is wrong.
 */
export async function confirmAuthenticatorApp(
  db: Db,
  actor: UserActor,
  sessionId: string,
  code: string,
): Promise<string[] | null> {
  return inTransaction(db, async (tx) => {
    if (!(await checkTotpCode(tx, actor.userId, code.replace(/\s/g, ""), false))) return null;
    const codes = await replaceRecoveryCodes(tx, actor.userId);
    await markSecondFactor(tx, sessionId);
    await recordAudit(tx, actor, { action: "user.totp_enabled", target: actor.userId });
    return codes;
  });
}

/** Removes the authenticator app (step-up first, so a stolen session cannot); the codes go with the last factor. */
export async function removeAuthenticatorApp(db: Db, actor: UserActor, user: SessionUser): Promise<void> {
  requireStepUp(user);
  await inTransaction(db, async (tx) => {
    if (!(await deleteTotp(tx, actor.userId))) return;
    if (!(await hasSecondFactor(tx, actor.userId))) await deleteRecoveryCodes(tx, actor.userId);
    await recordAudit(tx, actor, { action: "user.totp_removed", target: actor.userId });
  });
}

/** A new set of recovery codes, the old ones void (step-up first); null when no app is on. */
export async function renewRecoveryCodes(db: Db, actor: UserActor, user: SessionUser): Promise<string[] | null> {
  requireStepUp(user);
  return inTransaction(db, async (tx) => {
    if (!(await hasSecondFactor(tx, actor.userId))) return null;
    const codes = await replaceRecoveryCodes(tx, actor.userId);
    await recordAudit(tx, actor, { action: "user.recovery_codes_renewed", target: actor.userId });
    return codes;
  });
}
