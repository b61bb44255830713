import { randomBase62 } from "@/lib/kernel/random";
import { sha256Hex } from "@/lib/kernel/hash";

import type { Mode } from "@/lib/kernel/mode";

export const KEY_PREFIX: Record<Mode, string> = { sandbox: "mnt_test_sk_", live: "mnt_live_sk_" };

/** 43 base62 characters ≈ 256 random bits (the floor is 192). */
const SECRET_LENGTH = 43;
export const KEY_PATTERN = /^mnt_(test|live)_sk_[0-9A-Za-z]{43}$/;

export interface GeneratedSecret {
  secret: string;
  secretHash: string;
  displayPrefix: string;
  last4: string;
}

export function generateKeySecret(mode: Mode): GeneratedSecret {
  const secret = KEY_PREFIX[mode] + randomBase62(SECRET_LENGTH);
  return {
    secret,
    secretHash: sha256Hex(secret),
    displayPrefix: secret.slice(0, KEY_PREFIX[mode].length + 4),
    last4: secret.slice(-4),
  };
}

export function modeOfSecret(secret: string): Mode | null {
  if (secret.startsWith(KEY_PREFIX.sandbox)) return "sandbox";
  if (secret.startsWith(KEY_PREFIX.live)) return "live";
  return null;
}
