import type { Db } from "@/lib/platform/db/client";
import { query } from "@/lib/platform/db/query";
import { spendRecoveryCode } from "./recovery-codes";
import { checkTotpCode, isTotpCode } from "./totp";

export type CodeFactor = "totp" | "recovery_code";

/**
 * A typed code as a second factor: six digits are the authenticator app's code, anything else a recovery
 * code (spent by this use). Call it in a transaction (both lock what they spend).
 */
export async function verifySecondFactorCode(db: Db, userId: string, typed: string): Promise<CodeFactor | null> {
  const code = typed.trim();
  const digits = code.replace(/\s/g, "");
  if (isTotpCode(digits)) return (await checkTotpCode(db, userId, digits, true)) ? "totp" : null;
  return (await spendRecoveryCode(db, userId, code)) ? "recovery_code" : null;
}

export interface UserFactors {
  totp: boolean;
  passkeys: number;
}

/** Which second factors the user has (an authenticator app turned on, passkeys). */
export async function userFactors(db: Db, userId: string): Promise<UserFactors> {
  const [row] = await query<{ totp: boolean; passkeys: number }>(
    db,
    `select exists (select 1 from user_totp where user_id = $1 and confirmed_at is not null) as totp,
            (select count(*)::int from user_passkeys where user_id = $1) as passkeys`,
    [userId],
  );
  return { totp: Boolean(row?.totp), passkeys: row?.passkeys ?? 0 };
}

/** Whether signing in needs a second factor, and step-up can be done. */
export async function hasSecondFactor(db: Db, userId: string): Promise<boolean> {
  const f = await userFactors(db, userId);
  return f.totp || f.passkeys > 0;
}
