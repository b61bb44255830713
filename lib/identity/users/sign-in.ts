import { inTransaction, type Db } from "@/lib/platform/db/client";
import { query } from "@/lib/platform/db/query";
import { ipLimitKey } from "@/lib/platform/client-ip";
import { recordAudit } from "./audit";
import { hasSecondFactor, verifySecondFactorCode } from "./factors/second-factor";
import { dummyHash, verifyPassword } from "./password";
import type { Role } from "./roles";
import { openSession } from "./sessions";
import { lockAttempts, recordSignInAttempt } from "./sign-in-attempts";
import { signInWaitMs } from "./sign-in-limits";

export type SignInResult =
  | {
      ok: true;
      user: { id: string; merchantId: string; email: string; role: Role; sessionVersion: number };
      sessionId: string;
    }
  | { ok: false; reason: "invalid" | "second_factor_required" | "invalid_code" | "invalid_passkey" }
  | { ok: false; reason: "limited"; waitMs: number };

/**
 * A sign-in under the limits (sign-in-limits.ts): the password, then, for a user with a second factor, a code
 * (authenticator app or recovery code). The account's attempts, and the client's, are serialized (advisory
 * locks on the email, then on the client: lockAttempts) so parallel guesses cannot slip past either count. A
 * client that must wait is refused before anything is checked; an unknown email costs as long as a wrong
 * password. A right password without the code asks for it (nothing recorded); a wrong code counts toward the
 * account's code limit, which holds every client.
 */
export async function signInWithPassword(
  db: Db,
  input: { email: string; password: string; code?: string; ip: string; userAgent: string | null },
): Promise<SignInResult> {
  const email = input.email.trim().toLowerCase();
  const who = { email, ip: input.ip, clientKey: ipLimitKey(input.ip) };
  return inTransaction(db, async (tx) => {
    await lockAttempts(tx, who);
    // The code limit is checked before the password too: checked after, "limited" would tell a guesser
    // that the password was right.
    const waitMs = await signInWaitMs(tx, who, ["password", "code"]);
    if (waitMs > 0) return { ok: false, reason: "limited", waitMs };
    const [user] = await query<{
      id: string;
      merchant_id: string;
      email: string;
      role: Role;
      session_version: number;
      password_hash: string;
    }>(tx, "select id, merchant_id, email, role, session_version, password_hash from users where lower(email) = $1", [
      email,
    ]);
    const valid = await verifyPassword(user?.password_hash ?? (await dummyHash()), input.password);
    if (!user || !valid) {
      await recordSignInAttempt(tx, who, "password", false);
      return { ok: false, reason: "invalid" };
    }
    const needsCode = await hasSecondFactor(tx, user.id);
    if (needsCode && !input.code?.trim()) return { ok: false, reason: "second_factor_required" };
    const factor = needsCode ? await verifySecondFactorCode(tx, user.id, input.code ?? "") : null;
    if (needsCode && !factor) {
      await recordSignInAttempt(tx, who, "code", false);
      return { ok: false, reason: "invalid_code" };
    }
    await recordSignInAttempt(tx, who, needsCode ? "code" : "password", true);
    const actor = { merchantId: user.merchant_id, userId: user.id, ip: input.ip, userAgent: input.userAgent };
    const sessionId = await openSession(tx, {
      userId: user.id,
      ip: input.ip,
      userAgent: input.userAgent,
      secondFactor: Boolean(factor),
    });
    await recordAudit(tx, actor, {
      action: "user.signed_in",
      target: user.id,
      details: { second_factor: factor, session: sessionId },
    });
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
