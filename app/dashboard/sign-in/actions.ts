"use server";

import { getDb } from "@/lib/db/client";
import { passkeyAssertionOptions } from "@/lib/users/factors/passkeys";

/**
 * A passkey sign-in's challenge (no session yet: any discoverable passkey of this site may answer). The
 * answer goes to next-auth's "passkey" provider, which takes the challenge once.
 */
export async function passkeySignInOptions() {
  return passkeyAssertionOptions(getDb(), { purpose: "sign_in", userId: null });
}
