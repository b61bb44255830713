import { randomUUID } from "node:crypto";
import { inTransaction, type Db } from "@/lib/db/client";
import { execute, query } from "@/lib/db/query";
import { recordAudit } from "./audit";
import { dummyHash, verifyPassword } from "./password";
import type { Role } from "./roles";
import { signInWaitMs } from "./sign-in-limits";

export type SignInResult =
  | { ok: true; user: { id: string; merchantId: string; email: string; role: Role; sessionVersion: number } }
  | { ok: false; reason: "invalid" }
  | { ok: false; reason: "limited"; waitMs: number };

/**
 * A password sign-in under the limits (sign-in-limits.ts). The account's attempts are serialized (an
 * advisory lock on its email) so parallel guesses cannot slip past the count. A locked account or IP is
 * refused before the password is checked; an unknown email costs as long as a wrong password.
 */
export async function signInWithPassword(
  db: Db,
  input: { email: string; password: string; ip: string; userAgent: string | null },
): Promise<SignInResult> {
  const email = input.email.trim().toLowerCase();
  return inTransaction(db, async (tx) => {
    await execute(tx, "select pg_advisory_xact_lock(hashtext('sign_in:' || $1))", [email]);
    const waitMs = await signInWaitMs(tx, email, input.ip);
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
    const succeeded = Boolean(user) && valid;
    await execute(tx, "insert into sign_in_attempts (id, email, ip, succeeded) values ($1, $2, $3, $4)", [
      `sia_${randomUUID()}`,
      email,
      input.ip,
      succeeded,
    ]);
    if (!user || !succeeded) return { ok: false, reason: "invalid" };
    await recordAudit(
      tx,
      { merchantId: user.merchant_id, userId: user.id, ip: input.ip, userAgent: input.userAgent },
      { action: "user.signed_in", target: user.id },
    );
    return {
      ok: true,
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
