import type { AuthenticationResponseJSON } from "@simplewebauthn/server";
import { inTransaction, type Db } from "@/lib/platform/db/client";
import { type Actor, recordAudit } from "./audit";
import { verifyPasskeyAssertion } from "./factors/passkeys";
import { markSecondFactor } from "./sessions";

/** Proves a second factor for this session with one of the user's passkeys, audited. */
export async function stepUpWithPasskey(
  db: Db,
  actor: Actor & { userId: string },
  input: { sessionId: string; challengeId: string; response: AuthenticationResponseJSON },
): Promise<boolean> {
  return inTransaction(db, async (tx) => {
    const verified = await verifyPasskeyAssertion(tx, {
      purpose: "step_up",
      userId: actor.userId,
      challengeId: input.challengeId,
      response: input.response,
    });
    if (!verified) return false;
    await markSecondFactor(tx, input.sessionId);
    await recordAudit(tx, actor, {
      action: "user.stepped_up",
      target: input.sessionId,
      details: { second_factor: "passkey" },
    });
    return true;
  });
}
