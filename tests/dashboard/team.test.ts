import { randomBytes } from "node:crypto";
import { generate } from "otplib";
import { describe, expect, it } from "vitest";
import { getDb } from "@/lib/platform/db/client";
import { query } from "@/lib/platform/db/query";
import { acceptInvitation, findInvitation } from "@/lib/identity/users/accept-invitation";
import { changeMemberRole } from "@/lib/identity/users/change-member-role";
import { createUser } from "@/lib/identity/users/create-user";
import { confirmAuthenticatorApp } from "@/lib/identity/users/factors/manage-authenticator-app";
import { beginTotpEnrollment } from "@/lib/identity/users/factors/totp";
import { createInvitation, listPendingInvitations, revokeInvitation } from "@/lib/identity/users/invitations";
import { listAudit } from "@/lib/identity/users/list-audit";
import { listMembers } from "@/lib/identity/users/list-members";
import { removeMember } from "@/lib/identity/users/remove-member";
import type { Role } from "@/lib/identity/users/roles";
import { loadSessionUser } from "@/lib/identity/users/sessions";
import { signInWithPassword } from "@/lib/identity/users/sign-in";
import { TeamNotFoundError, TeamRuleError } from "@/lib/identity/users/team-errors";
import { readFileSync } from "node:fs";
import path from "node:path";
import { createApiKey } from "@/lib/identity/api-keys/create-api-key";
import { grantableScopes } from "@/lib/identity/users/grantable-scopes";
import { USER_ROLES } from "@/lib/identity/users/roles";
import { execute } from "@/lib/platform/db/query";
import { api, newMerchant } from "../helpers/api";
import { until } from "../helpers/started-service";

const unique = (name: string) => `${name}.${randomBytes(4).toString("hex")}@shop.test`;
const PASSWORD = "a long enough password";

async function member(merchantId: string, role: Role) {
  const { user, password } = await createUser(getDb(), { merchantId, email: unique(role), role });
  return { ...user, password };
}
const actorOf = (u: { id: string; merchant: string }) => ({
  merchantId: u.merchant,
  userId: u.id,
  ip: "10.0.0.1",
  userAgent: "vitest",
});
const auditOf = (merchantId: string) =>
  query<{ action: string; user_id: string | null; target: string | null; details: Record<string, unknown> | null }>(
    getDb(),
    "select action, user_id, target, details from audit_log where merchant_id = $1 order by created_at, id",
    [merchantId],
  );
const accept = (token: string, password = PASSWORD) =>
  acceptInvitation(getDb(), { token, password, ip: "10.0.0.2", userAgent: "vitest" });

/** Signs the member in with their password; the claims its session cookie would carry. */
async function sessionOf(user: { id: string; email: string; password: string }, ip: string) {
  const r = await signInWithPassword(getDb(), { email: user.email, password: user.password, ip, userAgent: "t" });
  if (!r.ok) throw new Error(`sign-in refused: ${r.reason}`);
  return { uid: user.id, sv: r.user.sessionVersion, sid: r.sessionId };
}

describe("invitations", () => {
  it("an owner or admin invitation needs the inviter's own second factor; nothing is written without it", async () => {
    const m = await newMerchant();
    const owner = await member(m.id, "owner");
    for (const role of ["owner", "admin"] as const) {
      await expect(createInvitation(getDb(), actorOf(owner), { email: unique(role), role })).rejects.toThrow(
        new TeamRuleError(
          `Inviting an ${role} needs a second factor on your own account: add one under Security first.`,
        ),
      );
    }
    expect(await listPendingInvitations(getDb(), m.id)).toEqual([]);
    // A developer needs none; with an authenticator app on, an admin invitation goes through.
    await createInvitation(getDb(), actorOf(owner), { email: unique("dev"), role: "developer" });
    const started = await beginTotpEnrollment(getDb(), { id: owner.id, email: owner.email });
    const code = await generate({ secret: started!.secret });
    expect(await confirmAuthenticatorApp(getDb(), actorOf(owner), "ses_t", code)).toBeTruthy();
    const admin = await createInvitation(getDb(), actorOf(owner), { email: unique("adm"), role: "admin" });
    expect((await listPendingInvitations(getDb(), m.id)).map((i) => i.role).sort()).toEqual(["admin", "developer"]);
    expect(admin.invitation.role).toBe("admin");
  });

  it(
    "a link works once: the user gets the invited role in the " + "inviter's merchant and can sign in; audited",
    async () => {
      const m = await newMerchant();
      const owner = await member(m.id, "owner");
      const email = unique("Invited");
      const { invitation, token } = await createInvitation(getDb(), actorOf(owner), { email, role: "developer" });
      expect(token).toMatch(/^[0-9A-Za-z]{32}$/);
      // Only the hash is stored.
      const [row] = await query<{ token_hash: string }>(getDb(), "select token_hash from invitations where id = $1", [
        invitation.id,
      ]);
      expect(row!.token_hash).toMatch(/^[0-9a-f]{64}$/);
      expect(row!.token_hash).not.toContain(token);
      expect(Date.parse(invitation.expiresAt) - Date.parse(invitation.createdAt)).toBe(7 * 86_400_000);
      expect((await listPendingInvitations(getDb(), m.id)).map((i) => i.email)).toEqual([email]);
      expect(await findInvitation(getDb(), token)).toMatchObject({ state: "valid", email, role: "developer" });

      const { userId } = await accept(token);
      const signedIn = await signInWithPassword(getDb(), { email, password: PASSWORD, ip: "10.0.0.3", userAgent: "t" });
      expect(signedIn).toMatchObject({ ok: true, user: { id: userId, merchantId: m.id, role: "developer" } });
      expect(await findInvitation(getDb(), token)).toEqual({ state: "used" });
      await expect(accept(token, "another long password")).rejects.toThrow(/already been used/);
      expect(await listPendingInvitations(getDb(), m.id)).toEqual([]);
      expect((await auditOf(m.id)).map((a) => [a.action, a.user_id])).toEqual([
        ["invitation.created", owner.id],
        ["invitation.accepted", userId],
        ["user.signed_in", userId],
      ]);
    },
  );

  it("two accepts of one link at once: exactly one user is created", async () => {
    const m = await newMerchant();
    const owner = await member(m.id, "owner");
    const email = unique("race");
    const { token } = await createInvitation(getDb(), actorOf(owner), { email, role: "viewer" });
    const results = await Promise.allSettled([accept(token), accept(token), accept(token)]);
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    const users = await query(getDb(), "select id from users where lower(email) = lower($1)", [email]);
    expect(users).toHaveLength(1);
  });

  it("expired, revoked and unknown links are refused; an email that is already a user cannot be invited", async () => {
    const m = await newMerchant();
    const owner = await member(m.id, "owner");
    const eightDaysAgo = new Date(Date.now() - 8 * 86_400_000);
    const old = await createInvitation(getDb(), actorOf(owner), { email: unique("old"), role: "viewer" }, eightDaysAgo);
    expect(await findInvitation(getDb(), old.token)).toEqual({ state: "expired" });
    await expect(accept(old.token)).rejects.toThrow(/expired/);
    expect(await listPendingInvitations(getDb(), m.id)).toEqual([]);

    const revoked = await createInvitation(getDb(), actorOf(owner), { email: unique("rev"), role: "developer" });
    await revokeInvitation(getDb(), actorOf(owner), revoked.invitation.id);
    await expect(accept(revoked.token)).rejects.toThrow(/revoked/);
    await expect(revokeInvitation(getDb(), actorOf(owner), revoked.invitation.id)).rejects.toThrow(TeamNotFoundError);
    expect(await findInvitation(getDb(), "x".repeat(32))).toEqual({ state: "unknown" });

    // Another merchant's owner cannot revoke this merchant's invitation.
    const other = await member((await newMerchant()).id, "owner");
    const pending = await createInvitation(getDb(), actorOf(owner), { email: unique("p"), role: "viewer" });
    await expect(revokeInvitation(getDb(), actorOf(other), pending.invitation.id)).rejects.toThrow(TeamNotFoundError);
    expect(await findInvitation(getDb(), pending.token)).toMatchObject({ state: "valid" });

    await expect(
      createInvitation(getDb(), actorOf(owner), { email: other.email.toUpperCase(), role: "viewer" }),
    ).rejects.toThrow(`${other.email.toUpperCase()} already has a dashboard account.`);
    await expect(createInvitation(getDb(), actorOf(owner), { email: "nope", role: "viewer" })).rejects.toThrow(
      TeamRuleError,
    );
    // Someone signed up with the invited email meanwhile: the acceptance is refused and the link stays unused.
    const late = unique("late");
    const raced = await createInvitation(getDb(), actorOf(owner), { email: late, role: "viewer" });
    await createUser(getDb(), { merchantId: other.merchant, email: late, role: "viewer" });
    await expect(accept(raced.token)).rejects.toThrow(/already exists/);
    expect(await findInvitation(getDb(), raced.token)).toMatchObject({ state: "valid" });
    expect((await auditOf(m.id)).map((a) => a.action)).toEqual([
      "invitation.created",
      "invitation.created",
      "invitation.revoked",
      "invitation.created",
      "invitation.created",
    ]);
  });
});

describe("members", () => {
  it("lists members with their last sign-in; a role change applies to the member's next request; audited", async () => {
    const m = await newMerchant();
    const owner = await member(m.id, "owner");
    const dev = await member(m.id, "developer");
    const devSession = await sessionOf(dev, "10.0.0.9");
    const listed = await listMembers(getDb(), m.id);
    expect(listed.map((x) => [x.email, x.role])).toEqual([
      [owner.email, "owner"],
      [dev.email, "developer"],
    ]);
    expect(listed[0]!.lastSignInAt).toBeNull();
    expect(Date.now() - Date.parse(listed[1]!.lastSignInAt!)).toBeLessThan(60_000);

    expect(await loadSessionUser(getDb(), devSession)).toMatchObject({ role: "developer" });
    await changeMemberRole(getDb(), actorOf(owner), { userId: dev.id, role: "viewer" });
    expect(await loadSessionUser(getDb(), devSession)).toMatchObject({ role: "viewer" });
    const audit = await auditOf(m.id);
    expect(audit.at(-1)).toEqual({
      action: "user.role_changed",
      user_id: owner.id,
      target: dev.id,
      details: { email: dev.email, from: "developer", to: "viewer", revoked_keys: [] },
    });
  });

  it("the last owner cannot be demoted or removed (not even by themselves); with two owners one may go", async () => {
    const m = await newMerchant();
    const owner = await member(m.id, "owner");
    await expect(changeMemberRole(getDb(), actorOf(owner), { userId: owner.id, role: "admin" })).rejects.toThrow(
      "A team keeps at least one owner",
    );
    await expect(removeMember(getDb(), actorOf(owner), owner.id)).rejects.toThrow(TeamRuleError);
    const second = await member(m.id, "owner");
    // Both demoting each other at once: one succeeds, one is refused; an owner remains.
    const both = await Promise.allSettled([
      changeMemberRole(getDb(), actorOf(owner), { userId: second.id, role: "admin" }),
      changeMemberRole(getDb(), actorOf(second), { userId: owner.id, role: "admin" }),
    ]);
    expect(both.filter((r) => r.status === "rejected")).toHaveLength(1);
    const owners = (await listMembers(getDb(), m.id)).filter((x) => x.role === "owner");
    expect(owners).toHaveLength(1);
    expect((await auditOf(m.id)).filter((a) => a.action === "user.role_changed")).toHaveLength(1);
  });

  it("a removed member's sessions are refused at once; another merchant's member is not found; audited", async () => {
    const m = await newMerchant();
    const owner = await member(m.id, "owner");
    const admin = await member(m.id, "admin");
    const adminSession = await sessionOf(admin, "10.0.0.6");
    expect(await loadSessionUser(getDb(), adminSession)).not.toBeNull();
    const stranger = await member((await newMerchant()).id, "viewer");
    await expect(removeMember(getDb(), actorOf(owner), stranger.id)).rejects.toThrow(TeamNotFoundError);
    await expect(changeMemberRole(getDb(), actorOf(owner), { userId: stranger.id, role: "owner" })).rejects.toThrow(
      TeamNotFoundError,
    );
    expect(await loadSessionUser(getDb(), await sessionOf(stranger, "10.0.0.8"))).toMatchObject({ role: "viewer" });

    await removeMember(getDb(), actorOf(owner), admin.id);
    expect(await loadSessionUser(getDb(), adminSession)).toBeNull();
    expect(await loadSessionUser(getDb(), { ...adminSession, sv: adminSession.sv + 1 })).toBeNull();
    const refused = await signInWithPassword(getDb(), {
      email: admin.email,
      password: admin.password,
      ip: "10.0.0.7",
      userAgent: "t",
    });
    expect(refused.ok).toBe(false);
    expect((await listMembers(getDb(), m.id)).map((x) => x.id)).toEqual([owner.id]);
    expect((await auditOf(m.id)).at(-1)).toEqual({
      action: "user.removed",
      user_id: owner.id,
      target: admin.id,
      details: { email: admin.email, role: "admin", revoked_keys: [] },
    });
    // The audit log still names them.
    const signIn = (await listAudit(getDb(), m.id)).entries.find((e) => e.action === "user.signed_in");
    expect(signIn!.email).toBe(`${admin.email} (removed)`);
    // The email is free again: it can be invited back.
    await expect(
      createInvitation(getDb(), actorOf(owner), { email: admin.email, role: "viewer" }),
    ).resolves.toBeTruthy();
  });
});

describe("leaving the team, or a role, ends the API access it gave", () => {
  const keyOf = (merchantId: string, userId: string, scopes: Parameters<typeof createApiKey>[1]["scopes"]) =>
    createApiKey(getDb(), { merchantId, mode: "sandbox", scopes, createdByUserId: userId });
  const refused = (key: string, path = "/v1/refunds?limit=1") =>
    until(`${key.slice(0, 16)}… refused`, async () => (await api("GET", path, { key })).status === 401, 2_000);

  it(
    "a removed member's keys are revoked in the removal: refused at once, " +
      "named in the audit entry, off the team page",
    async () => {
      const m = await newMerchant();
      const owner = await member(m.id, "owner");
      const dev = await member(m.id, "developer");
      const key = await keyOf(m.id, dev.id, ["payments:read", "refunds:read", "events:read"]);
      const ownerKey = await keyOf(m.id, owner.id, ["payments:read"]);
      expect((await api("GET", "/v1/refunds?limit=1", { key: key.secret })).status).toBe(200);
      expect((await listMembers(getDb(), m.id)).find((x) => x.id === dev.id)!.keys).toEqual([
        { id: key.id, mode: "sandbox", label: expect.stringMatching(/^mnt_test_sk_.*…[A-Za-z0-9]{4}$/) },
      ]);

      expect(await removeMember(getDb(), actorOf(owner), dev.id)).toEqual([key.id]);
      await refused(key.secret);
      expect((await api("GET", "/v1/payments?limit=1", { key: ownerKey.secret })).status).toBe(200);
      expect((await auditOf(m.id)).at(-1)).toEqual({
        action: "user.removed",
        user_id: owner.id,
        target: dev.id,
        details: { email: dev.email, role: "developer", revoked_keys: [key.id] },
      });
      expect((await listMembers(getDb(), m.id)).map((x) => [x.id, x.keys.map((k) => k.id)])).toEqual([
        [owner.id, [ownerKey.id]],
      ]);
    },
  );

  it(
    "a demoted admin keeps only the keys the new role could create: " + "payouts and refunds refused, a read key kept",
    async () => {
      const m = await newMerchant();
      const owner = await member(m.id, "owner");
      const admin = await member(m.id, "admin");
      const writer = await keyOf(m.id, admin.id, ["payouts:write", "refunds:write", "payments:write"]);
      const reader = await keyOf(m.id, admin.id, ["payments:read", "refunds:read"]);
      const revoked = await changeMemberRole(getDb(), actorOf(owner), { userId: admin.id, role: "viewer" });
      expect(revoked).toEqual([writer.id]);
      await refused(writer.secret);
      const payout = await api("POST", "/v1/payouts", {
        key: writer.secret,
        body: { amount: "1.000000", chain: "eth", to_address: "0x70997970C51812dc3A010C7d01b50e0d17dc79C8" },
      });
      expect(payout.status).toBe(401);
      expect((await api("GET", "/v1/refunds?limit=1", { key: reader.secret })).status).toBe(200);
      expect((await auditOf(m.id)).at(-1)!.details).toEqual({
        email: admin.email,
        from: "admin",
        to: "viewer",
        revoked_keys: [writer.id],
      });
    },
  );

  it(
    "migration 0042 revokes what earlier removals and demotions left working, " + "and grants as the role table does",
    async () => {
      // The role table as it was when 0042 ran: the scopes of later resources (0045: customers, 0047: deposits)
      // did not exist.
      const grantsOf0042 = (role: (typeof USER_ROLES)[number]) =>
        grantableScopes(role).filter((scope) => !scope.startsWith("customers:") && !scope.startsWith("deposits:"));
      const m = await newMerchant();
      const owner = await member(m.id, "owner");
      const demoted = await member(m.id, "developer");
      const gone = await member(m.id, "developer");
      const kept = await keyOf(m.id, demoted.id, ["payments:read", "webhooks:write"]);
      const beyond = await keyOf(m.id, demoted.id, ["payments:read", "refunds:write"]);
      const orphan = await keyOf(m.id, gone.id, ["payments:read"]);
      const ownerKey = await keyOf(m.id, owner.id, grantsOf0042("owner"));
      const cli = await createApiKey(getDb(), { merchantId: m.id, mode: "sandbox", scopes: ["payouts:write"] });
      await execute(getDb(), "delete from users where id = $1", [gone.id]); // as removals did before
      const migration = readFileSync(path.resolve("db/migrations/0042_revoke_departed_members_keys.sql"), "utf8");
      await execute(getDb(), migration);
      const working = await query<{ id: string }>(
        getDb(),
        "select id from api_keys where merchant_id = $1 and revoked_at is null order by id",
        [m.id],
      );
      const ids = working.map((k) => k.id);
      expect(ids).toEqual(expect.arrayContaining([kept.id, ownerKey.id, cli.id]));
      expect(ids).not.toContain(beyond.id);
      expect(ids).not.toContain(orphan.id);
      // Each role's array in the SQL is grantableScopes of that role (the viewer's is the else branch).
      const arrays = [...migration.matchAll(/(?:when '(\w+)' then|else) array\[([^\]]*)\]/g)].map((x) => [
        x[1] ?? "viewer",
        x[2]!.replace(/\s/g, "").replaceAll("'", "").split(","),
      ]);
      expect(Object.fromEntries(arrays)).toEqual(Object.fromEntries(USER_ROLES.map((r) => [r, grantsOf0042(r)])));
    },
  );
});
