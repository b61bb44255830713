import { randomBytes } from "node:crypto";

const ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

/** Uniform base62 string from the CSPRNG (rejection sampling, so no modulo bias): ~5.95 bits per char. */
export function randomBase62(length: number): string {
  let out = "";
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      if (byte < 248) out += ALPHABET[byte % 62];
      if (out.length === length) break;
    }
  }
  return out;
}

/** Prefixed, unguessable resource id (`pay_…`, `pl_…`): 24 base62 chars ≈ 142 random bits. */
export function newId(prefix: string): string {
  return `${prefix}${randomBase62(24)}`;
}
