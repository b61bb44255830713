import type { Db } from "@/lib/db/client";
import { spendRecoveryCode } from "./recovery-codes";
import { checkTotpCode, hasConfirmedTotp, isTotpCode } from "./totp";

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

/** Whether signing in needs a second factor, and step-up can be done. */
export async function hasSecondFactor(db: Db, userId: string): Promise<boolean> {
  return hasConfirmedTotp(db, userId);
}
