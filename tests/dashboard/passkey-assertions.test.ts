import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { getDb } from "@/lib/platform/db/client";
import { query } from "@/lib/platform/db/query";
import { createUser } from "@/lib/identity/users/create-user";
import {
  passkeyAssertionOptions,
  passkeyRegistrationOptions,
  registerPasskey,
} from "@/lib/identity/users/factors/passkeys";
import { relyingParty } from "@/lib/identity/users/factors/webauthn-challenges";
import { openSession } from "@/lib/identity/users/sessions";
import { signInWithPasskey } from "@/lib/identity/users/sign-in-with-passkey";
import { stepUpWithPasskey } from "@/lib/identity/users/step-up-with-passkey";
import { newMerchant } from "../helpers/api";
import { SoftAuthenticator } from "../helpers/soft-authenticator";

// WebAuthn answers checked by the server, made by a software authenticator (tests/helpers/soft-authenticator.ts)
// so that the answer can be wrong in exactly one way: signed for another origin (a phishing page relaying the
// ceremony), or carrying a signature counter that does not move forward (a cloned authenticator). Each refused
// answer writes nothing: no session, no step-up, the stored counter and last use unchanged.
const ip = () => `10.${randomBytes(1)[0]}.${randomBytes(1)[0]}.${1 + (randomBytes(1)[0]! % 250)}`;

async function userWithPasskey() {
  const m = await newMerchant();
  const email = `passkey.${randomBytes(4).toString("hex")}@shop.test`;
  const { user } = await createUser(getDb(), { merchantId: m.id, email, role: "owner" });
  const device = new SoftAuthenticator(relyingParty(), Buffer.from(user.id).toString("base64url"));
  const { challengeId, options } = await passkeyRegistrationOptions(getDb(), { id: user.id, email });
  const added = await registerPasskey(getDb(), {
    userId: user.id,
    challengeId,
    response: device.register(options.challenge),
    name: "soft",
  });
  expect(added).toBe(true);
  return { merchantId: m.id, userId: user.id, email, device };
}

const signIn = async (answer: (challenge: string) => Parameters<typeof signInWithPasskey>[1]["response"]) => {
  const { challengeId, options } = await passkeyAssertionOptions(getDb(), { purpose: "sign_in", userId: null });
  return signInWithPasskey(getDb(), { challengeId, response: answer(options.challenge), ip: ip(), userAgent: "t" });
};
const stored = async (passkeyId: string) => {
  const [row] = await query<{ counter: string; last_used_at: Date | null }>(
    getDb(),
    "select counter, last_used_at from user_passkeys where id = $1",
    [passkeyId],
  );
  return row;
};
const sessions = async (userId: string) =>
  (await query<{ n: number }>(getDb(), "select count(*)::int as n from user_sessions where user_id = $1", [userId]))[0]!
    .n;

describe("passkey assertions", () => {
  it("the software authenticator's answer signs in, and the stored counter moves to the answer's", async () => {
    const u = await userWithPasskey();
    expect(await stored(u.device.credentialId)).toEqual({ counter: "0", last_used_at: null });
    const result = await signIn((challenge) => u.device.assert(challenge));
    expect(result).toMatchObject({ ok: true, user: { id: u.userId } });
    expect(await sessions(u.userId)).toBe(1);
    expect((await stored(u.device.credentialId))?.counter).toBe("1");
  });

  it("an answer made for another origin is refused at sign-in and step-up, and writes nothing", async () => {
    const u = await userWithPasskey();
    expect(await signIn((challenge) => u.device.assert(challenge, { signCount: 3 }))).toMatchObject({ ok: true });
    const before = await stored(u.device.credentialId);
    expect(before?.counter).toBe("3");
    const evil = (challenge: string) => u.device.assert(challenge, { origin: "https://evil.example", signCount: 4 });
    expect(await signIn(evil)).toEqual({ ok: false, reason: "invalid_passkey" });
    expect(await sessions(u.userId)).toBe(1);
    expect(await stored(u.device.credentialId)).toEqual(before);
    // Step-up in a session of the user's: refused the same way, the session not marked.
    const sessionId = await openSession(getDb(), { userId: u.userId, ip: ip(), userAgent: "t", secondFactor: false });
    const actor = { merchantId: u.merchantId, userId: u.userId, ip: ip(), userAgent: "t" };
    const { challengeId, options } = await passkeyAssertionOptions(getDb(), { purpose: "step_up", userId: u.userId });
    expect(await stepUpWithPasskey(getDb(), actor, { sessionId, challengeId, response: evil(options.challenge) })).toBe(
      false,
    );
    const [marked] = await query<{ second_factor_at: Date | null }>(
      getDb(),
      "select second_factor_at from user_sessions where id = $1",
      [sessionId],
    );
    expect(marked?.second_factor_at).toBeNull();
    expect(await stored(u.device.credentialId)).toEqual(before);
    // The same authenticator from the right origin still gets in: only the origin was wrong.
    expect(await signIn((challenge) => u.device.assert(challenge, { signCount: 4 }))).toMatchObject({ ok: true });
  });

  it(
    "a signature counter that does not move forward (a cloned authenticator) " + "is refused, and writes nothing",
    async () => {
      const u = await userWithPasskey();
      expect(await signIn((challenge) => u.device.assert(challenge, { signCount: 7 }))).toMatchObject({ ok: true });
      const before = await stored(u.device.credentialId);
      expect(before?.counter).toBe("7");
      for (const signCount of [6, 7, 0]) {
        expect(await signIn((challenge) => u.device.assert(challenge, { signCount }))).toEqual({
          ok: false,
          reason: "invalid_passkey",
        });
        expect(await stored(u.device.credentialId)).toEqual(before);
      }
      expect(await sessions(u.userId)).toBe(1);
      // Step-up with the clone is refused too.
      const sessionId = await openSession(getDb(), { userId: u.userId, ip: ip(), userAgent: "t", secondFactor: false });
      const actor = { merchantId: u.merchantId, userId: u.userId, ip: ip(), userAgent: "t" };
      const { challengeId, options } = await passkeyAssertionOptions(getDb(), { purpose: "step_up", userId: u.userId });
      const clone = u.device.assert(options.challenge, { signCount: 5 });
      expect(await stepUpWithPasskey(getDb(), actor, { sessionId, challengeId, response: clone })).toBe(false);
      expect(await stored(u.device.credentialId)).toEqual(before);
      // The genuine authenticator, one further, is accepted.
      expect(await signIn((challenge) => u.device.assert(challenge, { signCount: 8 }))).toMatchObject({ ok: true });
      expect((await stored(u.device.credentialId))?.counter).toBe("8");
    },
  );
});
