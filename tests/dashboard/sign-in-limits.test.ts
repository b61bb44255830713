import { randomBytes } from "node:crypto";
import { drizzle } from "drizzle-orm/node-postgres";
import { generate } from "otplib";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { startSmtpReceiver } from "@/e2e/helpers/smtp-receiver";
import { config, resetConfig } from "@/lib/platform/config/env";
import { createPool, type Db, getDb } from "@/lib/platform/db/client";
import { query } from "@/lib/platform/db/query";
import { createUser } from "@/lib/identity/users/create-user";
import { confirmAuthenticatorApp } from "@/lib/identity/users/factors/manage-authenticator-app";
import { beginTotpEnrollment } from "@/lib/identity/users/factors/totp";
import { openSession } from "@/lib/identity/users/sessions";
import { passkeyAssertionOptions } from "@/lib/identity/users/factors/passkeys";
import { signInWithPassword } from "@/lib/identity/users/sign-in";
import { signInWithPasskey } from "@/lib/identity/users/sign-in-with-passkey";
import { ACCOUNT_FAILURE_LIMIT, CODE_FAILURE_LIMIT, IP_FAILURE_LIMIT } from "@/lib/identity/users/sign-in-limits";
import { sendSignInFailureNotice } from "@/lib/identity/users/sign-in-failure-notice";
import { stepUpWithCode } from "@/lib/identity/users/step-up";
import { newMerchant } from "../helpers/api";

// Nobody can lock someone else out: wrong passwords slow down the client that makes them, on that account,
// with growing delays; the owner signs in from anywhere else at once. Wrong codes (which need the password
// or a session first) hold code entry for the account everywhere. The limit reached is audited (and emailed).
const unique = (name: string) => `${name}.${randomBytes(4).toString("hex")}@shop.test`;
const ip = () => `10.${randomBytes(1)[0]}.${randomBytes(1)[0]}.${1 + (randomBytes(1)[0]! % 250)}`;
const attempt = (email: string, password: string, from: string, code?: string) =>
  signInWithPassword(getDb(), { email, password, code, ip: from, userAgent: "vitest" });
const WRONG = "wrong password!";

async function account(role: "owner" | "viewer" = "owner") {
  const m = await newMerchant();
  const email = unique(role);
  const { user, password } = await createUser(getDb(), { merchantId: m.id, email, role });
  return { merchantId: m.id, id: user.id, email, password };
}
/** Moves this account's attempts back in time, as if `ms` had passed. */
const elapse = (email: string, ms: number) =>
  query(
    getDb(),
    "update sign_in_attempts set created_at = created_at - $2 * interval '1 millisecond' where email = $1",
    [email, ms],
  );
const failureAudits = (userId: string) =>
  query<{ details: Record<string, unknown>; ip: string }>(
    getDb(),
    "select details, ip from audit_log where target = $1 and action = 'user.sign_in_failures' order by created_at",
    [userId],
  );
const waitOf = (r: Awaited<ReturnType<typeof attempt>>) => (r.ok || r.reason !== "limited" ? 0 : r.waitMs);

afterEach(() => {
  delete process.env.SMTP_URL;
  resetConfig();
});

describe("sign-in limits per client", () => {
  it(
    "5 wrong passwords slow that client down (30 s, then doubling); " + "the owner signs in from another at once",
    async () => {
      const u = await account();
      const attacker = ip();
      for (let i = 0; i < 5; i++)
        expect(await attempt(u.email, WRONG, attacker)).toEqual({ ok: false, reason: "invalid" });
      const held = await attempt(u.email, u.password, attacker);
      expect(waitOf(held)).toBeGreaterThan(25_000);
      expect(waitOf(held)).toBeLessThanOrEqual(30_000);
      // The owner, elsewhere: in at once, and their success does not clear the attacker's count.
      expect(await attempt(u.email, u.password, ip())).toMatchObject({ ok: true });
      expect(waitOf(await attempt(u.email, WRONG, attacker))).toBeGreaterThan(25_000);
      // Past the delay, one more wrong password doubles it.
      await elapse(u.email, 31_000);
      expect(await attempt(u.email, WRONG, attacker)).toEqual({ ok: false, reason: "invalid" });
      const doubled = waitOf(await attempt(u.email, u.password, attacker));
      expect(doubled).toBeGreaterThan(55_000);
      expect(doubled).toBeLessThanOrEqual(60_000);
      // Refused attempts are not counted.
      const [row] = await query<{ n: number }>(
        getDb(),
        "select count(*)::int as n from sign_in_attempts where email = $1 and not succeeded",
        [u.email],
      );
      expect(row!.n).toBe(6);
      // The owner's audit log shows it once, when the limit was reached (no SMTP: not emailed).
      const audits = await failureAudits(u.id);
      expect(audits).toEqual([
        { details: { kind: "password", failures: 5, client: attacker, emailed: false }, ip: attacker },
      ]);
    },
  );

  it("an IPv6 client is its /64: other addresses of it share the count, another /64 does not", async () => {
    const u = await account("viewer");
    const prefix = `2001:db8:${randomBytes(2).toString("hex")}:1`;
    for (let i = 1; i <= 5; i++) expect((await attempt(u.email, WRONG, `${prefix}::${i}`)).ok).toBe(false);
    expect(waitOf(await attempt(u.email, u.password, `${prefix}:ffff:ffff:ffff:ffff`))).toBeGreaterThan(25_000);
    expect(await attempt(u.email, u.password, `${prefix.slice(0, -1)}2::1`)).toMatchObject({ ok: true });
  });

  it("the client's own success clears its count: 4 failures, success, 4 failures still signs in", async () => {
    const u = await account("viewer");
    const from = ip();
    for (let round = 0; round < 2; round++) {
      for (let i = 0; i < 4; i++) expect((await attempt(u.email, WRONG, from)).ok).toBe(false);
      expect((await attempt(u.email, u.password, from)).ok).toBe(true);
    }
  });

  it("a client with 20 failures, whatever the accounts (unknown ones too), waits; other clients do not", async () => {
    const u = await account("viewer");
    const from = ip();
    for (let i = 0; i < 20; i++) expect((await attempt(unique(`guess${i}`), "guess guess guess", from)).ok).toBe(false);
    expect(waitOf(await attempt(u.email, u.password, from))).toBeGreaterThan(14 * 60_000);
    expect(await attempt(u.email, u.password, ip())).toMatchObject({ ok: true });
  });
});

describe("second-factor codes", () => {
  it(
    "5 wrong codes from any clients hold the account's code entry for 15 minutes, " + "at step-up and sign-in",
    async () => {
      const u = await account();
      const started = await beginTotpEnrollment(getDb(), { id: u.id, email: u.email });
      const actor = (from: string) => ({ merchantId: u.merchantId, userId: u.id, ip: from, userAgent: "t" });
      expect(
        await confirmAuthenticatorApp(getDb(), actor(ip()), "ses_x", await generate({ secret: started!.secret })),
      ).toBeTruthy();
      const sessionId = await openSession(getDb(), { userId: u.id, ip: ip(), userAgent: "t", secondFactor: false });
      const step = (code: string, from = ip()) =>
        stepUpWithCode(getDb(), actor(from), { email: u.email, sessionId, code });
      for (let i = 0; i < 5; i++) expect(await step("000000")).toEqual({ ok: false, reason: "invalid" });
      const next = await generate({ secret: started!.secret, epoch: Math.floor(Date.now() / 1000) + 30 });
      expect(await step(next)).toMatchObject({ ok: false, reason: "limited" });
      // Password sign-ins of the account wait too, before the password is checked: the right one and a wrong
      // one get the same answer, so the hold tells a guesser nothing.
      const signIn = await attempt(u.email, u.password, ip(), next);
      expect(waitOf(signIn)).toBeGreaterThan(14 * 60_000);
      expect(waitOf(await attempt(u.email, WRONG, ip()))).toBeGreaterThan(14 * 60_000);
      const [audit] = await failureAudits(u.id);
      expect(audit?.details).toMatchObject({ kind: "code", failures: 5 });
      await elapse(u.email, 15 * 60_000);
      expect(await step(next)).toEqual({ ok: true });
    },
  );
});

// Parallel guessing: the attempts arrive all at once, each in its own transaction on its own connection (a pool
// as wide as the burst, so none waits for a connection and all read the counts together unless serialized).
// The counts must hold exactly: the advisory locks of lib/identity/users/sign-in-attempts.ts#lockAttempts.
describe("parallel guessing", () => {
  const BURST = 20;
  const pool = createPool(config().databaseUrl!, BURST);
  const wide = drizzle(pool) as unknown as Db;
  afterAll(() => pool.end());
  /** `n` distinct clients, none shared with another test. */
  const clients = (n: number) => {
    const prefix = `10.${randomBytes(1)[0]}.${randomBytes(1)[0]}`;
    return Array.from({ length: n }, (_, i) => `${prefix}.${i + 1}`);
  };
  const reasons = (results: { ok: boolean; reason?: string }[]) =>
    Object.fromEntries(
      [...new Set(results.map((r) => (r.ok ? "ok" : r.reason!)))].map((k) => [
        k,
        results.filter((r) => (r.ok ? "ok" : r.reason) === k).length,
      ]),
    );
  const failures = async (where: string, value: string) =>
    (
      await query<{ n: number }>(
        getDb(),
        `select count(*)::int as n from sign_in_attempts where ${where} = $1 and not succeeded`,
        [value],
      )
    )[0]!.n;
  /** A code of none of the periods the server accepts now (so it is surely wrong). */
  const wrongCode = async (secret: string) => {
    const now = Math.floor(Date.now() / 1000);
    const valid = await Promise.all([-2, -1, 0, 1, 2].map((s) => generate({ secret, epoch: now + 30 * s })));
    return ["000000", "111111", "222222", "333333", "444444", "555555"].find((c) => !valid.includes(c))!;
  };
  async function withApp() {
    const u = await account();
    const started = await beginTotpEnrollment(getDb(), { id: u.id, email: u.email });
    const actor = { merchantId: u.merchantId, userId: u.id, ip: ip(), userAgent: "t" };
    expect(
      await confirmAuthenticatorApp(getDb(), actor, "ses_x", await generate({ secret: started!.secret })),
    ).toBeTruthy();
    const next = await generate({ secret: started!.secret, epoch: Math.floor(Date.now() / 1000) + 30 });
    return { ...u, secret: started!.secret, next };
  }

  it(
    "20 wrong passwords at once from one client: exactly 5 are checked, " + "15 held; then the right one is held too",
    async () => {
      const u = await account("viewer");
      const attacker = ip();
      const results = await Promise.all(
        Array.from({ length: BURST }, () =>
          signInWithPassword(wide, { email: u.email, password: WRONG, ip: attacker, userAgent: "vitest" }),
        ),
      );
      expect(reasons(results)).toEqual({ invalid: ACCOUNT_FAILURE_LIMIT, limited: BURST - ACCOUNT_FAILURE_LIMIT });
      expect(await failures("email", u.email)).toBe(ACCOUNT_FAILURE_LIMIT);
      expect(waitOf(await attempt(u.email, u.password, attacker))).toBeGreaterThan(25_000);
      expect(await attempt(u.email, u.password, ip())).toMatchObject({ ok: true });
    },
  );

  it(
    "20 wrong codes at once after the right password, each from another client: " +
      "exactly 5 count, then the right code is held",
    async () => {
      const u = await withApp();
      const wrong = await wrongCode(u.secret);
      const results = await Promise.all(
        clients(BURST).map((from) =>
          signInWithPassword(wide, {
            email: u.email,
            password: u.password,
            code: wrong,
            ip: from,
            userAgent: "vitest",
          }),
        ),
      );
      expect(reasons(results)).toEqual({ invalid_code: CODE_FAILURE_LIMIT, limited: BURST - CODE_FAILURE_LIMIT });
      expect(await failures("email", u.email)).toBe(CODE_FAILURE_LIMIT);
      expect(waitOf(await attempt(u.email, u.password, ip(), u.next))).toBeGreaterThan(14 * 60_000);
    },
  );

  it(
    "20 wrong codes at once at step-up, each from another client: " + "exactly 5 count, then the right code is held",
    async () => {
      const u = await withApp();
      const wrong = await wrongCode(u.secret);
      const sessionId = await openSession(getDb(), { userId: u.id, ip: ip(), userAgent: "t", secondFactor: false });
      const step = (db: Db, code: string, from: string) =>
        stepUpWithCode(
          db,
          { merchantId: u.merchantId, userId: u.id, ip: from, userAgent: "t" },
          {
            email: u.email,
            sessionId,
            code,
          },
        );
      const results = await Promise.all(clients(BURST).map((from) => step(wide, wrong, from)));
      expect(reasons(results)).toEqual({ invalid: CODE_FAILURE_LIMIT, limited: BURST - CODE_FAILURE_LIMIT });
      expect(await failures("email", u.email)).toBe(CODE_FAILURE_LIMIT);
      expect(await step(getDb(), u.next, ip())).toMatchObject({ ok: false, reason: "limited" });
    },
  );

  it(
    "40 wrong passwords at once from one client over 40 accounts: " + "the client is held at exactly 20 failures",
    async () => {
      const u = await account("viewer");
      const from = ip();
      // Half the limit first, so that a burst as wide as the pool would overshoot it if read all together.
      const before = IP_FAILURE_LIMIT / 2;
      for (let i = 0; i < before; i++) expect((await attempt(unique(`first${i}`), WRONG, from)).ok).toBe(false);
      const results = await Promise.all(
        Array.from({ length: 40 }, (_, i) =>
          signInWithPassword(wide, { email: unique(`many${i}`), password: WRONG, ip: from, userAgent: "vitest" }),
        ),
      );
      expect(reasons(results)).toEqual({
        invalid: IP_FAILURE_LIMIT - before,
        limited: 40 - (IP_FAILURE_LIMIT - before),
      });
      expect(await failures("client_key", from)).toBe(IP_FAILURE_LIMIT);
      expect(waitOf(await attempt(u.email, u.password, from))).toBeGreaterThan(14 * 60_000);
      expect(await attempt(u.email, u.password, ip())).toMatchObject({ ok: true });
    },
  );

  it("40 passkey answers at once from one client naming no known passkey: held at exactly 20 failures", async () => {
    const from = ip();
    const answer = async (db: Db) => {
      const { challengeId } = await passkeyAssertionOptions(getDb(), { purpose: "sign_in", userId: null });
      const id = randomBytes(16).toString("base64url");
      const response = {
        id,
        rawId: id,
        type: "public-key" as const,
        response: { clientDataJSON: "", authenticatorData: "", signature: "" },
        clientExtensionResults: {},
      };
      return signInWithPasskey(db, { challengeId, response, ip: from, userAgent: "vitest" });
    };
    const before = IP_FAILURE_LIMIT / 2;
    for (let i = 0; i < before; i++) expect(await answer(getDb())).toEqual({ ok: false, reason: "invalid_passkey" });
    const results = await Promise.all(Array.from({ length: 40 }, () => answer(wide)));
    expect(reasons(results)).toEqual({
      invalid_passkey: IP_FAILURE_LIMIT - before,
      limited: 40 - (IP_FAILURE_LIMIT - before),
    });
    expect(await failures("client_key", from)).toBe(IP_FAILURE_LIMIT);
  });
});

describe("the owner is told", () => {
  it(
    "with SMTP set, reaching the limit queues one email an hour; " + "the email says what happened and from where",
    async () => {
      const smtp = await startSmtpReceiver();
      try {
        process.env.SMTP_URL = `smtp://127.0.0.1:${smtp.port}`;
        resetConfig();
        const u = await account();
        const [first, second] = [ip(), ip()];
        for (const from of [first, second]) for (let i = 0; i < 5; i++) await attempt(u.email, WRONG, from);
        const audits = await failureAudits(u.id);
        expect(audits.map((a) => [a.details.client, a.details.emailed])).toEqual([
          [first, true],
          [second, false], // within the hour of the first email
        ]);
        const sent = await sendSignInFailureNotice(getDb(), {
          user_id: u.id,
          kind: "password",
          failures: 5,
          client: first,
          at: new Date().toISOString(),
        });
        expect(sent).toBe(true);
        expect(smtp.mails).toHaveLength(1);
        expect(smtp.mails[0]!.to).toEqual([u.email]);
        expect(smtp.mails[0]!.data).toContain(`5 wrong passwords were entered for your account`);
        expect(smtp.mails[0]!.data).toContain(`from ${first}`);
        expect(smtp.mails[0]!.data).toContain("Your account is not locked");
      } finally {
        await smtp.close();
      }
    },
  );
});
