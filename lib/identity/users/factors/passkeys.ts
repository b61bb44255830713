import {
  type AuthenticationResponseJSON,
  type AuthenticatorTransport,
  generateAuthenticationOptions,
  generateRegistrationOptions,
  type PublicKeyCredentialCreationOptionsJSON,
  type PublicKeyCredentialRequestOptionsJSON,
  type RegistrationResponseJSON,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
} from "@simplewebauthn/server";
import type { Db } from "@/lib/platform/db/client";
import { execute, query } from "@/lib/platform/db/query";
import { relyingParty, saveChallenge, takeChallenge } from "./webauthn-challenges";

export interface PasskeyRow {
  id: string;
  user_id: string;
  name: string;
  public_key: string;
  counter: string;
  transports: string[];
  created_at: Date;
  last_used_at: Date | null;
}

// Named columns, never `*`: a prepared statement's result must not change when a column is added (db/query.ts).
const PASSKEY_COLUMNS = "id, user_id, name, public_key, counter, transports, created_at, last_used_at";

export async function listPasskeys(db: Db, userId: string): Promise<PasskeyRow[]> {
  return query<PasskeyRow>(db, `select ${PASSKEY_COLUMNS} from user_passkeys where user_id = $1 order by created_at`, [
    userId,
  ]);
}

/** Options for adding a passkey: a discoverable credential (it can sign in without an email), user verified. */
export async function passkeyRegistrationOptions(
  db: Db,
  user: { id: string; email: string },
): Promise<{ challengeId: string; options: PublicKeyCredentialCreationOptionsJSON }> {
  const rp = relyingParty();
  const options = await generateRegistrationOptions({
    rpName: rp.name,
    rpID: rp.id,
    userName: user.email,
    userID: new TextEncoder().encode(user.id),
    attestationType: "none",
    excludeCredentials: (await listPasskeys(db, user.id)).map((p) => ({
      id: p.id,
      transports: p.transports as AuthenticatorTransport[],
    })),
    authenticatorSelection: { residentKey: "required", userVerification: "required" },
  });
  const challengeId = await saveChallenge(db, { purpose: "register", userId: user.id, challenge: options.challenge });
  return { challengeId, options };
}

/** Verifies the browser's answer and stores the passkey; false when it does not verify. */
export async function registerPasskey(
  db: Db,
  input: { userId: string; challengeId: string; response: RegistrationResponseJSON; name: string },
): Promise<boolean> {
  const challenge = await takeChallenge(db, { id: input.challengeId, purpose: "register", userId: input.userId });
  if (!challenge) return false;
  const rp = relyingParty();
  const result = await verifyRegistrationResponse({
    response: input.response,
    expectedChallenge: challenge,
    expectedOrigin: rp.origin,
    expectedRPID: rp.id,
    requireUserVerification: true,
  }).catch(() => null);
  if (!result?.verified) return false;
  const { credential, credentialBackedUp } = result.registrationInfo;
  const added = await query(
    db,
    `insert into user_passkeys (id, user_id, name, public_key, counter, transports, backed_up)
     values ($1, $2, $3, $4, $5, $6, $7) on conflict (id) do nothing returning id`,
    [
      credential.id,
      input.userId,
      input.name.trim().slice(0, 60) || "Passkey",
      Buffer.from(credential.publicKey).toString("base64url"),
      credential.counter,
      JSON.stringify(credential.transports ?? []),
      credentialBackedUp,
    ],
  );
  return added.length > 0;
}

/** Options for proving a passkey: any of this user's (step-up), or any discoverable one (sign-in, userId null). */
export async function passkeyAssertionOptions(
  db: Db,
  input: { purpose: "sign_in" | "step_up"; userId: string | null },
): Promise<{ challengeId: string; options: PublicKeyCredentialRequestOptionsJSON }> {
  const allow = input.userId ? await listPasskeys(db, input.userId) : [];
  const options = await generateAuthenticationOptions({
    rpID: relyingParty().id,
    userVerification: "required",
    allowCredentials: allow.map((p) => ({ id: p.id, transports: p.transports as AuthenticatorTransport[] })),
  });
  const challengeId = await saveChallenge(db, { ...input, challenge: options.challenge });
  return { challengeId, options };
}

/**
 * Verifies a passkey answer against its challenge (taken once) and the stored key; on success the counter
 * moves on and the passkey's user is returned. For step-up the passkey must be `userId`'s own.
 */
export async function verifyPasskeyAssertion(
  db: Db,
  input: {
    purpose: "sign_in" | "step_up";
    userId: string | null;
    challengeId: string;
    response: AuthenticationResponseJSON;
  },
): Promise<{ userId: string; passkeyId: string } | null> {
  if (typeof input.response?.id !== "string") return null;
  const challenge = await takeChallenge(db, { id: input.challengeId, purpose: input.purpose, userId: input.userId });
  if (!challenge) return null;
  const [passkey] = await query<PasskeyRow>(
    db,
    `select ${PASSKEY_COLUMNS} from user_passkeys where id = $1 for update`,
    [input.response.id],
  );
  if (!passkey || (input.userId && passkey.user_id !== input.userId)) return null;
  const rp = relyingParty();
  const result = await verifyAuthenticationResponse({
    response: input.response,
    expectedChallenge: challenge,
    expectedOrigin: rp.origin,
    expectedRPID: rp.id,
    requireUserVerification: true,
    credential: {
      id: passkey.id,
      publicKey: Buffer.from(passkey.public_key, "base64url"),
      counter: Number(passkey.counter),
      transports: passkey.transports as AuthenticatorTransport[],
    },
  }).catch(() => null);
  if (!result?.verified) return null;
  await execute(db, "update user_passkeys set counter = $2, last_used_at = now() where id = $1", [
    passkey.id,
    result.authenticationInfo.newCounter,
  ]);
  return { userId: passkey.user_id, passkeyId: passkey.id };
}

export async function deletePasskey(db: Db, userId: string, passkeyId: string): Promise<boolean> {
  return (await execute(db, "delete from user_passkeys where id = $1 and user_id = $2", [passkeyId, userId])) > 0;
}
