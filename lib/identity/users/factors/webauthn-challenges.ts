import { config } from "@/lib/platform/config/env";
import type { Db } from "@/lib/platform/db/client";
import { newId } from "@/lib/kernel/random";
import { execute, query } from "@/lib/platform/db/query";

export type CeremonyPurpose = "register" | "sign_in" | "step_up";

/** A ceremony must be answered within this time (the browser's own timeout is a minute). */
const CHALLENGE_TTL_SECONDS = 5 * 60;

/**
 * The relying party is this service's public URL, never the request's Host: a phishing site that relays
 * a passkey answer carries its own origin, and the answer is refused.
 */
export function relyingParty(): { id: string; origin: string; name: string } {
  const url = new URL(config().publicBaseUrl);
  return { id: url.hostname, origin: url.origin, name: "USDT Payments" };
}

/** Stores a ceremony's challenge; expired ones are swept on the way. */
export async function saveChallenge(
  db: Db,
  input: { purpose: CeremonyPurpose; userId: string | null; challenge: string },
): Promise<string> {
  await execute(db, "delete from webauthn_challenges where expires_at < now()");
  const id = newId("wch_");
  await execute(
    db,
    `insert into webauthn_challenges (id, user_id, purpose, challenge, expires_at)
     values ($1, $2, $3, $4, now() + make_interval(secs => $5))`,
    [id, input.userId, input.purpose, input.challenge, CHALLENGE_TTL_SECONDS],
  );
  return id;
}

/** Takes a challenge once: gone after this call, null when unknown, expired, or not this ceremony's. */
export async function takeChallenge(
  db: Db,
  input: { id: string; purpose: CeremonyPurpose; userId: string | null },
): Promise<string | null> {
  const [row] = await query<{ challenge: string }>(
    db,
    `delete from webauthn_challenges
      where id = $1 and purpose = $2 and user_id is not distinct from $3 and expires_at > now()
      returning challenge`,
    [input.id, input.purpose, input.userId],
  );
  return row?.challenge ?? null;
}
