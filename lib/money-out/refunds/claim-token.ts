import { createHash, createHmac, randomBytes, randomInt, timingSafeEqual } from "node:crypto";
import { decryptSecret, encryptSecret } from "@/lib/platform/secrets/encryption";
import { masterKey } from "@/lib/platform/secrets/master-key";

/**
 * A refund's claim token: 32 random bytes (base64url), unguessable. Stored twice: its SHA-256, which finds the
 * refund from the link, and sealed under the master key bound to the refund, so a refunder can read `claim_url`
 * again; both are erased when the claim is used or the refund ends (docs/REFUNDS.md).
 */
export function newClaimToken(refundId: string): { token: string; hash: string; sealed: string } {
  const token = randomBytes(32).toString("base64url");
  return { token, hash: hashClaimToken(token), sealed: sealClaimToken(refundId, token) };
}

export const hashClaimToken = (token: string) => createHash("sha256").update(token).digest("hex");

const purpose = (refundId: string) => `refund-claim:${refundId}`;
const sealClaimToken = (refundId: string, token: string) =>
  encryptSecret(masterKey(), Buffer.from(token), purpose(refundId));
export const unsealClaimToken = (refundId: string, sealed: string) =>
  decryptSecret(masterKey(), sealed, purpose(refundId)).toString();

/** The page where the payer gives the address. */
export const claimUrl = (baseUrl: string, token: string) => `${baseUrl}/refund/${token}`;

/** A token as links carry it: 43 base64url characters (anything else is not looked up). */
export const isClaimTokenShape = (token: string) => /^[A-Za-z0-9_-]{43}$/.test(token);

/** Wrong codes a link takes before it is locked (regenerating it gives a new link, a new code and 5 tries). */
export const CLAIM_CODE_ATTEMPTS = 5;

/**
 * The one-time code a merchant sends the payer by another channel than the link: 8 digits. Only its HMAC under
 * the master key, bound to the refund, is stored: a database copy alone cannot be searched for the code.
 */
export function newClaimCode(refundId: string): { code: string; hash: string } {
  const code = String(randomInt(0, 100_000_000)).padStart(8, "0");
  return { code, hash: hashClaimCode(refundId, code) };
}

const hashClaimCode = (refundId: string, code: string) =>
  createHmac("sha256", masterKey()).update(`refund-claim-code:${refundId}:${code}`).digest("hex");

/** Whether `typed` (spaces and dashes ignored) is the refund's code. */
export function claimCodeMatches(refundId: string, storedHash: string, typed: string): boolean {
  const normalized = typed.replace(/[\s-]/g, "");
  if (!/^\d{8}$/.test(normalized)) return false;
  const given = Buffer.from(hashClaimCode(refundId, normalized), "hex");
  const stored = Buffer.from(storedHash, "hex");
  return given.length === stored.length && timingSafeEqual(given, stored);
}
