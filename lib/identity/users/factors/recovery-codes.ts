import { randomBytes } from "node:crypto";
import { base32 } from "@scure/base";
import type { Db } from "@/lib/platform/db/client";
import { newId } from "@/lib/kernel/random";
import { sha256Hex } from "@/lib/kernel/hash";
import { execute, query } from "@/lib/platform/db/query";

export const RECOVERY_CODE_COUNT = 10;

/** Spaces, dashes and case do not matter when a code is typed back. */
const normalize = (code: string) => code.replace(/[\s-]/g, "").toLowerCase();

/** `abcde-fghij`: 50 random bits, base32 (no 0/1/8/9 to misread), shown once and stored hashed. */
function newCode(): string {
  const text = base32.encode(randomBytes(7)).slice(0, 10).toLowerCase();
  return `${text.slice(0, 5)}-${text.slice(5)}`;
}

/** Replaces the user's recovery codes with a new set; the plain codes are returned this once. */
export async function replaceRecoveryCodes(db: Db, userId: string): Promise<string[]> {
  await execute(db, "delete from user_recovery_codes where user_id = $1", [userId]);
  const codes = Array.from({ length: RECOVERY_CODE_COUNT }, newCode);
  for (const code of codes)
    await execute(db, "insert into user_recovery_codes (id, user_id, code_hash) values ($1, $2, $3)", [
      newId("rc_"),
      userId,
      sha256Hex(normalize(code)),
    ]);
  return codes;
}

/** Spends one unused recovery code; false when it is wrong or already used. */
export async function spendRecoveryCode(db: Db, userId: string, code: string): Promise<boolean> {
  const normalized = normalize(code);
  if (!/^[a-z2-7]{10}$/.test(normalized)) return false;
  const spent = await query(
    db,
    `update user_recovery_codes set used_at = now()
      where id = (select id from user_recovery_codes where user_id = $1 and code_hash = $2 and used_at is null
                   limit 1 for update)
      returning id`,
    [userId, sha256Hex(normalized)],
  );
  return spent.length > 0;
}

export async function unusedRecoveryCodes(db: Db, userId: string): Promise<number> {
  const [row] = await query<{ n: number }>(
    db,
    "select count(*)::int as n from user_recovery_codes where user_id = $1 and used_at is null",
    [userId],
  );
  return row?.n ?? 0;
}

export async function deleteRecoveryCodes(db: Db, userId: string): Promise<void> {
  await execute(db, "delete from user_recovery_codes where user_id = $1", [userId]);
}
