import { createHash, randomBytes } from "node:crypto";
import { decryptSecret, encryptSecret } from "@/lib/platform/secrets/encryption";
import { masterKey } from "@/lib/platform/secrets/master-key";

/**
 * A refund's claim token: 32 random bytes (base64url), unguessable. Stored twice: its SHA-256, which finds the
 * refund from the link, and sealed under the master key bound to the refund, so the merchant can read
 * `claim_url` again; both are erased when the claim is used or the refund ends (docs/REFUNDS.md).
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
