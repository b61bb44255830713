import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";

/**
 * AES-256-GCM for secrets at rest (wallet seeds, webhook signing secrets). Format:
 * `v1.<iv>.<tag>.<ciphertext>` (base64url). `purpose` is bound as associated data, so a ciphertext
 * stored for one purpose cannot be replayed as another.
 */
export function encryptSecret(masterKey: Buffer, plaintext: Buffer, purpose: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", masterKey, iv);
  cipher.setAAD(Buffer.from(purpose));
  const ciphertext = Buffer.concat([cipher.update(plaintext), cipher.final()]);
  return ["v1", iv, cipher.getAuthTag(), ciphertext]
    .map((p) => (typeof p === "string" ? p : p.toString("base64url")))
    .join(".");
}

export function decryptSecret(masterKey: Buffer, sealed: string, purpose: string): Buffer {
  const [version, iv, tag, ciphertext] = sealed.split(".");
  if (version !== "v1" || !iv || !tag || ciphertext === undefined)
    throw new Error("unrecognized encrypted secret format");
  const decipher = createDecipheriv("aes-256-gcm", masterKey, Buffer.from(iv, "base64url"));
  decipher.setAAD(Buffer.from(purpose));
  decipher.setAuthTag(Buffer.from(tag, "base64url"));
  return Buffer.concat([decipher.update(Buffer.from(ciphertext, "base64url")), decipher.final()]);
}
