import { type Algorithm, hash, verify } from "@node-rs/argon2";
import { randomBase62 } from "@/lib/kernel/random";

// Argon2id with OWASP's second recommended setting (19 MiB, 2 passes, 1 lane): ~50 ms here.
// (Algorithm is a const enum, unusable under isolatedModules: 2 is its Argon2id.)
const OPTIONS = { algorithm: 2 as Algorithm, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

export const MIN_PASSWORD_LENGTH = 12;

export function hashPassword(password: string): Promise<string> {
  return hash(password, OPTIONS);
}

/** False for a wrong password and for a hash that is not Argon2 (never throws on bad input). */
export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await verify(passwordHash, password);
  } catch {
    return false;
  }
}

/** A password shown once to the operator: 20 base62 characters (~119 bits). */
export function generatePassword(): string {
  return randomBase62(20);
}

/** A hash of nothing anyone knows: verified against when the email is unknown, so both cases take as long. */
let dummy: Promise<string> | undefined;
export function dummyHash(): Promise<string> {
  dummy ??= hashPassword(randomBase62(20));
  return dummy;
}
