import { inTransaction, type Db } from "@/lib/platform/db/client";
import { query } from "@/lib/platform/db/query";
import { ipLimitKey } from "@/lib/platform/client-ip";
import { verifyPassword } from "../password";
import type { SessionUser } from "../sessions";
import { lockAttempts, recordSignInAttempt } from "../sign-in-attempts";
import { signInWaitMs } from "../sign-in-limits";
import { waitMessage } from "../sign-in-messages";
import { hasFreshStepUp } from "../step-up";
import { hasSecondFactor } from "./second-factor";

export type AddFactorRefusal = { reason: "step_up" } | { reason: "password"; message: string };

/**
 * Whether this session may add a second factor, so a borrowed session cannot plant its own factor and then
 * pass step-up with it: with a factor already, step-up first; with none, the current password (checked
 * under the sign-in limits).
 */
export async function checkMayAddFactor(
  db: Db,
  user: SessionUser,
  input: { password: string; ip: string | null },
): Promise<AddFactorRefusal | null> {
  if (await hasSecondFactor(db, user.id)) return hasFreshStepUp(user) ? null : { reason: "step_up" };
  const email = user.email.toLowerCase();
  const ip = input.ip ?? "unknown";
  const who = { email, ip, clientKey: ipLimitKey(ip) };
  return inTransaction(db, async (tx) => {
    await lockAttempts(tx, who);
    const waitMs = await signInWaitMs(tx, who, ["password"]);
    if (waitMs > 0) return { reason: "password", message: waitMessage(waitMs) } as const;
    const [row] = await query<{ password_hash: string }>(tx, "select password_hash from users where id = $1", [
      user.id,
    ]);
    const valid = Boolean(row) && (await verifyPassword(row!.password_hash, input.password));
    await recordSignInAttempt(tx, who, "password", valid);
    return valid ? null : ({ reason: "password", message: "Wrong password." } as const);
  });
}
