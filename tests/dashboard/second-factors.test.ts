import { randomBytes } from "node:crypto";
import { generate } from "otplib";
import { describe, expect, it } from "vitest";
import { config } from "@/lib/platform/config/env";
import { getDb } from "@/lib/platform/db/client";
import { query } from "@/lib/platform/db/query";
import { createUser } from "@/lib/identity/users/create-user";
import { confirmAuthenticatorApp, removeAuthenticatorApp } from "@/lib/identity/users/factors/manage-authenticator-app";
import { checkMayAddFactor } from "@/lib/identity/users/factors/may-add-factor";
import { beginTotpEnrollment } from "@/lib/identity/users/factors/totp";
import { relyingParty, saveChallenge, takeChallenge } from "@/lib/identity/users/factors/webauthn-challenges";
import { loadSessionUser } from "@/lib/identity/users/sessions";
import { signInWithPassword } from "@/lib/identity/users/sign-in";
import { hasFreshStepUp, requireStepUp, StepUpRequiredError, stepUpWithCode } from "@/lib/identity/users/step-up";
import { newMerchant } from "../helpers/api";

const unique = (name: string) => `${name}.${randomBytes(4).toString("hex")}@shop.test`;
const ip = () => `10.${randomBytes(1)[0]}.${randomBytes(1)[0]}.${1 + (randomBytes(1)[0]! % 250)}`;
/** The app's code `steps` 30 s periods from now (the server accepts one period either side). */
const codeAt = (secret: string, steps: number) =>
  generate({ secret, epoch: Math.floor(Date.now() / 1000) + 30 * steps });

/**
 * A user with an authenticator app turned on (with this period's code) and its recovery codes. Tests use later
 * periods' codes after it: a code of a past period could fall out of the window if a period ends mid-test.
 */
async function userWithApp() {
  const m = await newMerchant();
  const email = unique("totp");
  const { user, password } = await createUser(getDb(), { merchantId: m.id, email, role: "owner" });
  const started = await beginTotpEnrollment(getDb(), { id: user.id, email });
  if (!started) throw new Error("enrollment refused");
  const actor = { merchantId: m.id, userId: user.id, ip: "10.1.1.1", userAgent: "vitest" };
  const first = await signInWithPassword(getDb(), { email, password, ip: ip(), userAgent: "vitest" });
  if (!first.ok) throw new Error(first.reason);
  const session = { uid: user.id, sv: 1, sid: first.sessionId };
  const codes = await confirmAuthenticatorApp(getDb(), actor, session.sid, await codeAt(started.secret, 0));
  if (!codes) throw new Error("confirmation refused");
  return { m, email, password, user, actor, secret: started.secret, uri: started.uri, codes, session };
}

describe("authenticator app (TOTP) and recovery codes", () => {
  it("enrolls with a QR URI, stores the secret sealed, and turns on only with a right code", async () => {
    const m = await newMerchant();
    const email = unique("enroll");
    const { user } = await createUser(getDb(), { merchantId: m.id, email, role: "viewer" });
    const started = await beginTotpEnrollment(getDb(), { id: user.id, email });
    expect(started?.uri).toMatch(/^otpauth:\/\/totp\/USDT%20Payments:.+\?secret=[A-Z2-7]+/);
    const [row] = await query<{ sealed_secret: string }>(
      getDb(),
      "select sealed_secret from user_totp where user_id = $1",
      [user.id],
    );
    expect(row?.sealed_secret).toMatch(/^v1\./);
    expect(row?.sealed_secret).not.toContain(started?.secret);
    const actor = { merchantId: m.id, userId: user.id, ip: null, userAgent: null };
    expect(await confirmAuthenticatorApp(getDb(), actor, "ses_none", "000000")).toBeNull();
    const codes = await confirmAuthenticatorApp(getDb(), actor, "ses_none", await codeAt(started!.secret, 0));
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    expect(codes?.[0]).toMatch(/^[a-z2-7]{5}-[a-z2-7]{5}$/);
    expect(await beginTotpEnrollment(getDb(), { id: user.id, email })).toBeNull();
  });

  it(
    "sign-in asks for the code after the right password; " + "a code works once; wrong codes count toward the lock",
    async () => {
      const u = await userWithApp();
      const from = ip();
      const signIn = (code?: string) =>
        signInWithPassword(getDb(), { email: u.email, password: u.password, code, ip: from, userAgent: "vitest" });
      expect(await signIn()).toEqual({ ok: false, reason: "second_factor_required" });
      expect(
        await signInWithPassword(getDb(), {
          email: u.email,
          password: "wrong wrong wrong",
          code: await codeAt(u.secret, 0),
          ip: from,
          userAgent: "t",
        }),
      ).toEqual({ ok: false, reason: "invalid" });
      const current = await codeAt(u.secret, 1);
      const ok = await signIn(current);
      expect(ok).toMatchObject({ ok: true });
      const user = await loadSessionUser(getDb(), { uid: u.user.id, sv: 1, sid: ok.ok ? ok.sessionId : "" });
      expect(user && hasFreshStepUp(user)).toBe(true);
      expect(await signIn(current)).toEqual({ ok: false, reason: "invalid_code" });
      expect(await signIn(await codeAt(u.secret, 0))).toEqual({ ok: false, reason: "invalid_code" });
      expect(await signIn(` ${u.codes[3]!.toUpperCase()} `)).toMatchObject({ ok: true });
      expect(await signIn(u.codes[3])).toEqual({ ok: false, reason: "invalid_code" });
      for (let i = 0; i < 4; i++) expect(await signIn("12345x-zzzzz")).toEqual({ ok: false, reason: "invalid_code" });
      expect(await signIn(u.codes[4])).toMatchObject({ ok: false, reason: "limited" });
    },
  );

  it("step-up: needed after 5 minutes, proved by a code under the limits, required to remove the app", async () => {
    const u = await userWithApp();
    await query(getDb(), "update user_sessions set second_factor_at = now() - interval '6 minutes' where id = $1", [
      u.session.sid,
    ]);
    const stale = await loadSessionUser(getDb(), u.session);
    expect(stale?.secondFactorAt).toBeInstanceOf(Date);
    expect(() => requireStepUp(stale!)).toThrow(StepUpRequiredError);
    await expect(removeAuthenticatorApp(getDb(), u.actor, stale!)).rejects.toThrow(StepUpRequiredError);

    const step = (code: string) => stepUpWithCode(getDb(), u.actor, { email: u.email, sessionId: u.session.sid, code });
    expect(await step("000000")).toEqual({ ok: false, reason: "invalid" });
    expect(await step(await codeAt(u.secret, 1))).toEqual({ ok: true });
    const fresh = await loadSessionUser(getDb(), u.session);
    expect(() => requireStepUp(fresh!)).not.toThrow();

    await removeAuthenticatorApp(getDb(), u.actor, fresh!);
    expect(
      await signInWithPassword(getDb(), { email: u.email, password: u.password, ip: ip(), userAgent: "t" }),
    ).toMatchObject({ ok: true });
    const left = await query(getDb(), "select 1 from user_recovery_codes where user_id = $1", [u.user.id]);
    expect(left).toEqual([]);
    const audit = await query<{ action: string }>(
      getDb(),
      "select action from audit_log where user_id = $1 order by created_at",
      [u.user.id],
    );
    expect(audit.map((a) => a.action)).toEqual(
      expect.arrayContaining(["user.totp_enabled", "user.stepped_up", "user.totp_removed"]),
    );
  });
});

describe("adding factors and WebAuthn challenges", () => {
  it("the first factor needs the password (counted like a sign-in); later ones need step-up", async () => {
    const m = await newMerchant();
    const email = unique("addfactor");
    const { user, password } = await createUser(getDb(), { merchantId: m.id, email, role: "developer" });
    const session = {
      id: user.id,
      merchantId: m.id,
      merchantName: "",
      email,
      role: "developer" as const,
      sessionId: "ses_x",
      secondFactorAt: null,
    };
    const from = ip();
    expect(await checkMayAddFactor(getDb(), session, { password: "wrong wrong wrong", ip: from })).toEqual({
      reason: "password",
      message: "Wrong password.",
    });
    const failures = await query(getDb(), "select 1 from sign_in_attempts where email = $1 and not succeeded", [email]);
    expect(failures).toHaveLength(1);
    expect(await checkMayAddFactor(getDb(), session, { password, ip: from })).toBeNull();

    const u = await userWithApp();
    const withApp = { ...session, id: u.user.id, email: u.email };
    expect(await checkMayAddFactor(getDb(), withApp, { password: u.password, ip: from })).toEqual({
      reason: "step_up",
    });
    expect(
      await checkMayAddFactor(getDb(), { ...withApp, secondFactorAt: new Date() }, { password: "", ip: from }),
    ).toBeNull();
  });

  it("a challenge is taken once, only for its ceremony and user, and not after it expires", async () => {
    const u = await userWithApp();
    const save = () => saveChallenge(getDb(), { purpose: "step_up", userId: u.user.id, challenge: "c1" });
    const id = await save();
    expect(await takeChallenge(getDb(), { id, purpose: "sign_in", userId: u.user.id })).toBeNull();
    expect(await takeChallenge(getDb(), { id, purpose: "step_up", userId: null })).toBeNull();
    expect(await takeChallenge(getDb(), { id, purpose: "step_up", userId: u.user.id })).toBe("c1");
    expect(await takeChallenge(getDb(), { id, purpose: "step_up", userId: u.user.id })).toBeNull();
    const old = await save();
    await query(getDb(), "update webauthn_challenges set expires_at = now() - interval '1 second' where id = $1", [
      old,
    ]);
    expect(await takeChallenge(getDb(), { id: old, purpose: "step_up", userId: u.user.id })).toBeNull();
  });

  it("the relying party is the configured public URL, whatever host a request names", () => {
    expect(relyingParty()).toEqual({
      id: new URL(config().publicBaseUrl).hostname,
      origin: new URL(config().publicBaseUrl).origin,
      name: "USDT Payments",
    });
  });
});
