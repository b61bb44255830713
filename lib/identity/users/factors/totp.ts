import { generateSecret, generateURI, verify } from "otplib";
import type { Db } from "@/lib/platform/db/client";
import { execute, query } from "@/lib/platform/db/query";
import { decryptSecret, encryptSecret } from "@/lib/platform/secrets/encryption";
import { masterKey } from "@/lib/platform/secrets/master-key";

/** The name authenticator apps show above the code. */
export const TOTP_ISSUER = "USDT Payments";
/** One 30 s step either side: a phone clock a little off still works (RFC 6238 §5.2). */
const EPOCH_TOLERANCE_SECONDS = 30;

const purpose = (userId: string) => `totp:${userId}`;
const seal = (userId: string, secret: string) => encryptSecret(masterKey(), Buffer.from(secret), purpose(userId));
const unseal = (userId: string, sealed: string) => decryptSecret(masterKey(), sealed, purpose(userId)).toString();

export const isTotpCode = (code: string) => /^\d{6}$/.test(code);

/**
 * Starts (or restarts) adding an authenticator app: a new secret, stored sealed and unconfirmed, and the
 * otpauth:// URI for its QR code. Refused when an app is already confirmed (remove it first).
 */
export async function beginTotpEnrollment(
  db: Db,
  user: { id: string; email: string },
): Promise<{ secret: string; uri: string } | null> {
  const secret = generateSecret();
  const stored = await query(
    db,
    `insert into user_totp (user_id, sealed_secret) values ($1, $2)
     on conflict (user_id) do update
     set sealed_secret = excluded.sealed_secret, created_at = now(), last_time_step = null
       where user_totp.confirmed_at is null
     returning user_id`,
    [user.id, seal(user.id, secret)],
  );
  if (stored.length === 0) return null;
  return { secret, uri: generateURI({ issuer: TOTP_ISSUER, label: user.email, secret }) };
}

/**
 * Checks a code against the user's app (`confirmed`: the enrolled one; otherwise the pending one). A code's
 * time step must be later than the last accepted one, so a code works once (replay refused). Call it in a
 * transaction: the row is locked so two requests cannot both spend one code.
 */
export async function checkTotpCode(db: Db, userId: string, code: string, confirmed: boolean): Promise<boolean> {
  if (!isTotpCode(code)) return false;
  const [row] = await query<{ sealed_secret: string; last_time_step: string | null }>(
    db,
    `select sealed_secret, last_time_step from user_totp
      where user_id = $1 and (confirmed_at is not null) = $2 for update`,
    [userId, confirmed],
  );
  if (!row) return false;
  const result = await verify({
    secret: unseal(userId, row.sealed_secret),
    token: code,
    epochTolerance: EPOCH_TOLERANCE_SECONDS,
    // bigint comes back as text; time steps (~5.9e7 today) are far inside a safe integer.
    ...(row.last_time_step !== null ? { afterTimeStep: Number(row.last_time_step) } : {}),
  });
  if (!result.valid || !("timeStep" in result)) return false;
  await execute(
    db,
    `update user_totp set last_time_step = $2, confirmed_at = coalesce(confirmed_at, now()) where user_id = $1`,
    [userId, result.timeStep],
  );
  return true;
}

export async function hasConfirmedTotp(db: Db, userId: string): Promise<boolean> {
  const rows = await query(db, "select 1 from user_totp where user_id = $1 and confirmed_at is not null", [userId]);
  return rows.length > 0;
}

export async function deleteTotp(db: Db, userId: string): Promise<boolean> {
  return (await execute(db, "delete from user_totp where user_id = $1", [userId])) > 0;
}
