import type { RegistrationResponseJSON } from "@simplewebauthn/server";
import { inTransaction, type Db } from "@/lib/platform/db/client";
import { type Actor, recordAudit } from "../audit";
import type { SessionUser } from "../sessions";
import { requireStepUp } from "../step-up";
import { deletePasskey, registerPasskey } from "./passkeys";
import { replaceRecoveryCodes, unusedRecoveryCodes, deleteRecoveryCodes } from "./recovery-codes";
import { hasSecondFactor } from "./second-factor";

type UserActor = Actor & { userId: string };

/**
 * Stores a verified new passkey, audited. A user's first second factor also gets recovery codes (returned
 * once); otherwise `codes` is empty. Null: the browser's answer did not verify.
 */
export async function addPasskey(
  db: Db,
  actor: UserActor,
  input: { challengeId: string; response: RegistrationResponseJSON; name: string },
): Promise<{ codes: string[] } | null> {
  return inTransaction(db, async (tx) => {
    if (!(await registerPasskey(tx, { userId: actor.userId, ...input }))) return null;
    const codes =
      (await unusedRecoveryCodes(tx, actor.userId)) === 0 ? await replaceRecoveryCodes(tx, actor.userId) : [];
    await recordAudit(tx, actor, {
      action: "user.passkey_added",
      target: input.response.id,
      details: { name: input.name },
    });
    return { codes };
  });
}

/** Removes one of the user's passkeys (step-up first); the recovery codes go with the last factor. */
export async function removePasskey(db: Db, actor: UserActor, user: SessionUser, passkeyId: string): Promise<boolean> {
  requireStepUp(user);
  return inTransaction(db, async (tx) => {
    if (!(await deletePasskey(tx, actor.userId, passkeyId))) return false;
    if (!(await hasSecondFactor(tx, actor.userId))) await deleteRecoveryCodes(tx, actor.userId);
    await recordAudit(tx, actor, { action: "user.passkey_removed", target: passkeyId });
    return true;
  });
}
