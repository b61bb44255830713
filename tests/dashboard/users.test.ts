import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { getDb } from "@/lib/platform/db/client";
import { query } from "@/lib/platform/db/query";
import { recordAudit } from "@/lib/identity/users/audit";
import { createUser, UserInputError } from "@/lib/identity/users/create-user";
import { listAudit } from "@/lib/identity/users/list-audit";
import { hashPassword, verifyPassword } from "@/lib/identity/users/password";
import {
  endSession,
  listOpenSessions,
  loadSessionUser,
  openSession,
  pruneSessions,
  signOutEverywhere,
} from "@/lib/identity/users/sessions";
import { signInWithPassword } from "@/lib/identity/users/sign-in";
import { pruneSignInAttempts } from "@/lib/identity/users/sign-in-limits";
import { newMerchant } from "../helpers/api";
import { runCli } from "../helpers/run-cli";

const unique = (name: string) => `${name}.${randomBytes(4).toString("hex")}@shop.test`;
const ip = () => `10.${randomBytes(1)[0]}.${randomBytes(1)[0]}.${1 + (randomBytes(1)[0]! % 250)}`;
const attempt = (email: string, password: string, from: string) =>
  signInWithPassword(getDb(), { email, password, ip: from, userAgent: "vitest" });

describe("passwords", () => {
  it("are stored as Argon2id hashes with a fresh salt, and only the right password verifies", async () => {
    const [a, b] = await Promise.all([hashPassword("correct horse battery"), hashPassword("correct horse battery")]);
    expect(a).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(a).not.toBe(b);
    expect(await verifyPassword(a, "correct horse battery")).toBe(true);
    expect(await verifyPassword(a, "correct horse batterY")).toBe(false);
    expect(await verifyPassword("not a hash", "correct horse battery")).toBe(false);
  });

  it("users: emails unique whatever their case; short passwords refused; the hash never leaves", async () => {
    const m = await newMerchant();
    const email = unique("Case");
    const made = await createUser(getDb(), { merchantId: m.id, email, role: "admin" });
    expect(made.user).toEqual({
      id: expect.stringMatching(/^usr_[0-9A-Za-z]{24}$/),
      object: "user",
      merchant: m.id,
      email,
      role: "admin",
      created_at: expect.any(String),
    });
    expect(made.password).toMatch(/^[0-9A-Za-z]{20}$/);
    await expect(createUser(getDb(), { merchantId: m.id, email: email.toUpperCase(), role: "viewer" })).rejects.toThrow(
      UserInputError,
    );
    await expect(
      createUser(getDb(), { merchantId: m.id, email: unique("short"), role: "viewer", password: "elevenchars" }),
    ).rejects.toThrow(/at least 12 characters/);
  });
});

describe("CLI users create", () => {
  it("prints the user and a generated password once; the password signs in; the creation is audited", async () => {
    const m = await newMerchant();
    const email = unique("owner");
    const res = await runCli(["users", "create", "--merchant", m.id, "--email", email, "--role", "owner", "--json"], {
      ...process.env,
    });
    expect(res.code, res.stderr).toBe(0);
    expect(res.stdout.trimEnd().split("\n")).toHaveLength(1);
    const out = JSON.parse(res.stdout);
    expect(out).toEqual({
      user: {
        id: expect.stringMatching(/^usr_/),
        object: "user",
        merchant: m.id,
        email,
        role: "owner",
        created_at: expect.any(String),
      },
      password: expect.stringMatching(/^[0-9A-Za-z]{20}$/),
    });
    const [stored] = await query<{ password_hash: string }>(getDb(), "select password_hash from users where id = $1", [
      out.user.id,
    ]);
    expect(stored!.password_hash).not.toContain(out.password);
    const signedIn = await attempt(email.toUpperCase(), out.password, ip());
    expect(signedIn).toMatchObject({ ok: true, user: { id: out.user.id, merchantId: m.id, role: "owner" } });
    const audit = await query<{ action: string; user_id: string | null; user_agent: string | null }>(
      getDb(),
      "select action, user_id, user_agent from audit_log where merchant_id = $1 order by created_at",
      [m.id],
    );
    expect(audit).toEqual([
      { action: "user.created", user_id: null, user_agent: "cli" },
      { action: "user.signed_in", user_id: out.user.id, user_agent: "vitest" },
    ]);
  });

  it("refuses a bad role, an unknown merchant and a taken email with exit 2", async () => {
    const m = await newMerchant();
    const email = unique("taken");
    const run = (args: string[]) => runCli(["users", "create", ...args, "--json"], { ...process.env });
    const badRole = await run(["--merchant", m.id, "--email", email, "--role", "god"]);
    expect([badRole.code, JSON.parse(badRole.stdout).error.message]).toEqual([
      2,
      '--role must be one of owner, admin, developer, viewer, got "god"',
    ]);
    const noMerchant = await run(["--merchant", "mer_nope", "--email", email, "--role", "viewer"]);
    expect([noMerchant.code, JSON.parse(noMerchant.stdout).error.message]).toEqual([2, "no merchant mer_nope"]);
    expect((await run(["--merchant", m.id, "--email", email, "--role", "viewer"])).code).toBe(0);
    const taken = await run(["--merchant", m.id, "--email", email.toUpperCase(), "--role", "viewer"]);
    expect(taken.code).toBe(2);
    expect(JSON.parse(taken.stdout).error.message).toContain("already exists");
  }, 90_000); // several CLI processes, each a cold start of its own
});

describe("sign-in attempts retention", () => {
  it("attempts older than 30 days are pruned, newer ones kept", async () => {
    const email = unique("retention");
    await attempt(email, "whatever whatever", ip());
    await attempt(email, "whatever whatever", ip());
    await query(
      getDb(),
      `update sign_in_attempts set created_at = now() - interval '31 days'
        where id = (select id from sign_in_attempts where email = $1 order by created_at limit 1)`,
      [email],
    );
    while ((await pruneSignInAttempts(getDb())) > 0);
    const left = await query(getDb(), "select 1 from sign_in_attempts where email = $1", [email]);
    expect(left).toHaveLength(1);
  });
});

describe("sessions", () => {
  it(
    "a session is its row and the user's version: ending it, " + "signing out everywhere or idling ends it, audited",
    async () => {
      const m = await newMerchant("Session Shop");
      const email = unique("sessions");
      const { user, password } = await createUser(getDb(), { merchantId: m.id, email, role: "developer" });
      const signIn = async () => {
        const r = await attempt(email, password, ip());
        if (!r.ok) throw new Error(r.reason);
        return { uid: user.id, sv: r.user.sessionVersion, sid: r.sessionId };
      };
      const [a, b, c] = [await signIn(), await signIn(), await signIn()];
      expect(await loadSessionUser(getDb(), a)).toEqual({
        id: user.id,
        merchantId: m.id,
        merchantName: "Session Shop",
        email,
        role: "developer",
        sessionId: a.sid,
        secondFactorAt: null,
      });
      expect(await loadSessionUser(getDb(), { ...a, uid: "usr_other" })).toBeNull();
      const actor = { merchantId: m.id, userId: user.id, ip: "10.0.0.9", userAgent: "ua" };
      expect(await endSession(getDb(), actor, a.sid)).toBe(true);
      expect(await loadSessionUser(getDb(), a)).toBeNull();
      expect(await loadSessionUser(getDb(), b)).not.toBeNull();
      expect((await listOpenSessions(getDb(), user.id)).map((s) => s.id).sort()).toEqual([b.sid, c.sid].sort());

      await query(getDb(), "update user_sessions set last_seen_at = now() - interval '31 minutes' where id = $1", [
        c.sid,
      ]);
      expect(await loadSessionUser(getDb(), c)).toBeNull();

      await signOutEverywhere(getDb(), actor);
      expect(await loadSessionUser(getDb(), b)).toBeNull();
      expect(await loadSessionUser(getDb(), { ...b, sv: b.sv + 1 })).toBeNull();
      expect(await listOpenSessions(getDb(), user.id)).toEqual([]);
      const audit = await query(
        getDb(),
        "select action, ip, user_agent from audit_log where user_id = $1 and ip = $2",
        [user.id, "10.0.0.9"],
      );
      expect(audit.map((r) => r.action).sort()).toEqual(["user.session_ended", "user.signed_out_everywhere"]);
    },
  );
});

describe("session rows retention", () => {
  it("rows ended or idle more than 30 days ago are pruned; open and recent ones stay", async () => {
    const m = await newMerchant();
    const { user } = await createUser(getDb(), { merchantId: m.id, email: unique("prune"), role: "viewer" });
    const open = () => openSession(getDb(), { userId: user.id, ip: null, userAgent: null, secondFactor: false });
    const [fresh, endedLongAgo, idleLongAgo, endedRecently] = [await open(), await open(), await open(), await open()];
    await query(getDb(), "update user_sessions set ended_at = now() - interval '31 days' where id = $1", [
      endedLongAgo,
    ]);
    await query(getDb(), "update user_sessions set last_seen_at = now() - interval '31 days' where id = $1", [
      idleLongAgo,
    ]);
    await query(getDb(), "update user_sessions set ended_at = now() - interval '1 day' where id = $1", [endedRecently]);
    while ((await pruneSessions(getDb())) > 0);
    const left = await query<{ id: string }>(getDb(), "select id from user_sessions where user_id = $1", [user.id]);
    expect(left.map((r) => r.id).sort()).toEqual([fresh, endedRecently].sort());
  });
});

describe("audit log pages", () => {
  it(
    "pages newest first with a keyset cursor: nothing lost or repeated; " + "another merchant's cursor matches nothing",
    async () => {
      const m = await newMerchant("Audit Shop");
      const actor = { merchantId: m.id, userId: null, ip: "10.0.0.1", userAgent: "vitest" };
      for (let i = 0; i < 7; i++) await recordAudit(getDb(), actor, { action: `test.step_${i}` });
      const first = await listAudit(getDb(), m.id, { limit: 3 });
      const second = await listAudit(getDb(), m.id, { limit: 3, after: first.entries.at(-1)!.id });
      const third = await listAudit(getDb(), m.id, { limit: 3, after: second.entries.at(-1)!.id });
      const seen = [...first.entries, ...second.entries, ...third.entries].map((e) => e.id);
      // One page of everything is the reference order (entries of one millisecond tie-break by id).
      expect(seen).toEqual((await listAudit(getDb(), m.id, { limit: 100 })).entries.map((e) => e.id));
      expect(seen).toHaveLength(7);
      expect([first.hasMore, second.hasMore, third.hasMore]).toEqual([true, true, false]);
      const other = await newMerchant();
      expect((await listAudit(getDb(), other.id, { after: first.entries[0]!.id })).entries).toEqual([]);
    },
  );
});
