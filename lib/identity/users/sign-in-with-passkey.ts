import type { AuthenticationResponseJSON } from "@simplewebauthn/server";
import { inTransaction, type Db } from "@/lib/platform/db/client";
import { query } from "@/lib/platform/db/query";
import { ipLimitKey } from "@/lib/platform/client-ip";
import { recordAudit } from "./audit";
import { verifyPasskeyAssertion } from "./factors/passkeys";
import type { Role } from "./roles";
import { openSession } from "./sessions";
import type { SignInResult } from "./sign-in";
import { lockClientAttempts, recordSignInAttempt } from "./sign-in-attempts";
import { signInWaitMs } from "./sign-in-limits";

/** Failures of passkey sign-ins that name no known passkey are counted under this "email" (per-IP limit). */
const UNKNOWN_PASSKEY = "(passkey)";

/**
 * Sign-in with a passkey alone: it is two factors in one (the device, and the PIN or biometric that
 * verified the user). Only the client limit applies: a passkey cannot be guessed, so others' wrong passwords
 * for the account never keep its owner's passkey out. The session counts as having proved a second factor.
 */
export async function signInWithPasskey(
  db: Db,
  input: { challengeId: string; response: AuthenticationResponseJSON; ip: string; userAgent: string | null },
): Promise<SignInResult> {
  return inTransaction(db, async (tx) => {
    const [owner] = await query<{ email: string }>(
      tx,
      "select lower(u.email) as email from user_passkeys p join users u on u.id = p.user_id where p.id = $1",
      [String(input.response?.id ?? "")],
    );
    const who = { email: owner?.email ?? UNKNOWN_PASSKEY, ip: input.ip, clientKey: ipLimitKey(input.ip) };
    await lockClientAttempts(tx, who.clientKey);
    const waitMs = await signInWaitMs(tx, who, ["passkey"]);
    if (waitMs > 0) return { ok: false, reason: "limited", waitMs };
    const verified = await verifyPasskeyAssertion(tx, { purpose: "sign_in", userId: null, ...input });
    await recordSignInAttempt(tx, who, "passkey", Boolean(verified));
    if (!verified) return { ok: false, reason: "invalid_passkey" };
    const [user] = await query<{ id: string; merchant_id: string; email: string; role: Role; session_version: number }>(
      tx,
      "select id, merchant_id, email, role, session_version from users where id = $1",
      [verified.userId],
    );
    if (!user) return { ok: false, reason: "invalid_passkey" };
    const sessionId = await openSession(tx, {
      userId: user.id,
      ip: input.ip,
      userAgent: input.userAgent,
      secondFactor: true,
    });
    await recordAudit(
      tx,
      { merchantId: user.merchant_id, userId: user.id, ip: input.ip, userAgent: input.userAgent },
      { action: "user.signed_in", target: user.id, details: { second_factor: "passkey", session: sessionId } },
    );
    return {
      ok: true,
      sessionId,
      user: {
        id: user.id,
        merchantId: user.merchant_id,
        email: user.email,
        role: user.role,
        sessionVersion: user.session_version,
      },
    };
  });
}
