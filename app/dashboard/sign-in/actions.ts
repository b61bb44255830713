"use server";

import type { PublicKeyCredentialRequestOptionsJSON } from "@simplewebauthn/server";
import { headers } from "next/headers";
import { getDb } from "@/lib/platform/db/client";
import { getRateLimiter, LIMITS, retryAfterSeconds, WINDOW_MS } from "@/lib/platform/rate-limit/policies";
import { ipLimitKey } from "@/lib/platform/client-ip";
import { passkeyAssertionOptions } from "@/lib/identity/users/factors/passkeys";

export type PasskeySignInCeremony =
  | { challengeId: string; options: PublicKeyCredentialRequestOptionsJSON }
  | { error: string };

/**
 * A passkey sign-in's challenge (no session yet: any discoverable passkey of this site may answer). The
 * answer goes to next-auth's "passkey" provider, which takes the challenge once. Each one is a stored row,
 * so a client (an IPv4 address or IPv6 /64) gets 30 a minute.
 */
export async function passkeySignInOptions(): Promise<PasskeySignInCeremony> {
  const client = ipLimitKey((await headers()).get("x-client-ip") ?? "unknown");
  const admitted = await getRateLimiter().hit(`ip:${client}:passkey_challenges`, LIMITS.passkey_challenges, WINDOW_MS);
  if (!admitted.allowed)
    return { error: `Too many passkey attempts. Try again in ${retryAfterSeconds(admitted.retryAfterMs)} seconds.` };
  return passkeyAssertionOptions(getDb(), { purpose: "sign_in", userId: null });
}
