import path from "node:path";
import type { Browser, BrowserContext, Page, Request } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { getDb } from "@/lib/platform/db/client";
import { query } from "@/lib/platform/db/query";
import { spawnWebServer, type SpawnedWebServer } from "@/scripts/lib/spawn-web";
import { createApiKey } from "@/lib/identity/api-keys/create-api-key";
import { api, newMerchant, type TestMerchant } from "@/tests/helpers/api";
import { launchBrowser, site, snapshot, snapshotWide, waitUntil } from "./helpers/browser";
import { newUserWithApp, newVisitor, signIn, signInWithCode } from "./helpers/dashboard";
import { startSmtpReceiver } from "./helpers/smtp-receiver";

// Team: an owner invites by link (shown to copy, emailed when SMTP is configured), the invited person joins
// with a password and signs in with the invited role; role changes apply at once; removal ends the sessions.
const MERCHANT = "Quince Tea Co";
let browser: Browser;
let m: TestMerchant;
const contexts: BrowserContext[] = [];
const visitor = async () => {
  const v = await newVisitor(browser);
  contexts.push(v.context);
  return v;
};

beforeAll(async () => {
  [browser, m] = await Promise.all([launchBrowser(), newMerchant(MERCHANT)]);
});
afterAll(async () => {
  for (const c of contexts) await c.close();
  await browser?.close();
});

const memberRow = (page: Page, email: string) => page.locator(`li[data-member="${email}"]`);
const auditActions = async () =>
  (
    await query<{ action: string }>(
      getDb(),
      `select action from audit_log
       where merchant_id = $1 and action like any (array['invitation.%', 'user.role_changed', 'user.removed'])
       order by created_at, id`,
      [m.id],
    )
  ).map((r) => r.action);

/** Invites `email` as `role` from the team page; returns the link shown. */
async function invite(page: Page, email: string, role: string): Promise<string> {
  await page.getByLabel("Email", { exact: true }).fill(email);
  await page.getByLabel("Role", { exact: true }).selectOption(role);
  await page.getByRole("button", { name: "Invite", exact: true }).click();
  const box = page.getByLabel(`Invitation link for ${email} (works once, for 7 days)`);
  await box.waitFor({ timeout: 15_000 });
  return box.inputValue();
}

describe("dashboard team", () => {
  it("invite → accept with a password → sign in with the role; " +
    "role change at once; removal ends the session", async () => {
    // Team changes need step-up: this owner signs in with an authenticator app code.
    const owner = await newUserWithApp(m.id, "owner");
    const o = await visitor();
    await o.context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: site("") });
    await signInWithCode(o.page, owner);
    await o.page.getByRole("link", { name: "Team" }).click();
    await o.page.getByRole("heading", { name: "Team", exact: true }).waitFor();
    await o.page.getByText("No pending invitations. Invite a teammate above.").waitFor();
    expect(await memberRow(o.page, owner.email).innerText()).toContain("(you)");
    await snapshot(o.page, "dashboard-team");

    const email = `ines.${Date.now()}@shop.test`;
    const [inviteRequest] = await Promise.all([
      o.page.waitForRequest((r: Request) => r.method() === "POST" && "next-action" in r.headers()),
      invite(o.page, email, "developer"),
    ]);
    const link = await o.page.getByLabel(`Invitation link for ${email} (works once, for 7 days)`).inputValue();
    expect(link).toMatch(/\/dashboard\/invite\/[0-9A-Za-z]{32}$/);
    await o.page.getByRole("button", { name: "Copy link" }).click();
    await o.page.getByRole("button", { name: "Copied" }).waitFor();
    expect(await o.page.evaluate(() => navigator.clipboard.readText())).toBe(link);
    await o.page.reload();
    expect(await o.page.locator(`li[data-invitation="${email}"]`).innerText()).toContain("developer");
    await snapshot(o.page, "dashboard-team-invited");
    await snapshotWide(o.page, "dashboard-team-invited");

    // The invited person, in a browser of their own, with no session.
    const n = await visitor();
    await n.page.goto(link);
    await n.page.getByRole("heading", { name: `Join ${MERCHANT}` }).waitFor();
    await n.page.getByLabel("Password", { exact: true }).fill("short");
    await n.page.getByLabel("Confirm password").fill("short");
    await n.page.getByRole("button", { name: "Create account" }).click();
    expect(await n.page.locator("#password-error").innerText()).toBe("Use at least 12 characters.");
    const password = "plum blossom tea leaves";
    await n.page.getByLabel("Password", { exact: true }).fill(password);
    await n.page.getByLabel("Confirm password").fill(`${password}!`);
    await n.page.getByRole("button", { name: "Create account" }).click();
    await n.page.locator("#confirmation-error").getByText("The two passwords differ.").waitFor();
    await snapshot(n.page, "dashboard-invite-error");
    await snapshotWide(n.page, "dashboard-invite-error");
    // A refused form comes back empty (passwords are never echoed back): both typed again.
    await n.page.getByLabel("Password", { exact: true }).fill(password);
    await n.page.getByLabel("Confirm password").fill(password);
    await n.page.getByRole("button", { name: "Create account" }).click();
    await n.page.getByText(`Your account ${email} is ready.`).waitFor({ timeout: 15_000 });
    await snapshot(n.page, "dashboard-invite-accepted");
    await n.page.getByRole("link", { name: "Sign in" }).click();
    await n.page.waitForURL(/\/dashboard\/sign-in$/);
    const memberOrigin = new URL(n.page.url()).origin;
    await signIn(n.page, { email, password, id: "" });
    expect(await n.page.locator("header").innerText()).toContain(`${email} · developer`);
    // A developer reads the team but changes nothing.
    await n.page.getByRole("link", { name: "Team" }).click();
    await memberRow(n.page, email).waitFor();
    expect(await n.page.getByRole("button", { name: "Invite", exact: true }).count()).toBe(0);
    expect(await n.page.getByRole("button", { name: /^Change role of/ }).count()).toBe(0);
    // The owner's invite request replayed with the developer's session: refused, no invitation made.
    const replay = async (request: Request) => {
      const headers = Object.fromEntries(
        Object.entries(await request.allHeaders()).filter(([k]) => !["cookie", "content-length", "host"].includes(k)),
      );
      const url = request.url().replace(new URL(request.url()).origin, memberOrigin);
      return (
        await n.context.request.post(url, {
          headers: { ...headers, origin: memberOrigin },
          data: request.postDataBuffer()!,
        })
      ).text();
    };
    const invitations = async () =>
      (await query(getDb(), "select id from invitations where merchant_id = $1", [m.id])).length;
    const before = await invitations();
    expect(await replay(inviteRequest)).toContain("Your role (developer) does not allow this.");
    expect(await invitations()).toBe(before);
    // The link is spent.
    const again = await visitor();
    await again.page.goto(link);
    await again.page.getByText("This invitation has already been used.").waitFor();
    await snapshot(again.page, "dashboard-invite-used");
    // A link that was never issued is the 404 page.
    expect((await again.page.goto(site(`/dashboard/invite/${"x".repeat(32)}`)))?.status()).toBe(404);

    // The owner makes them admin: their very next page shows it.
    await o.page.reload();
    const newRole = o.page.getByLabel(`New role for ${email}`);
    await newRole.selectOption("admin");
    const [action] = await Promise.all([
      o.page.waitForRequest((r: Request) => r.method() === "POST" && "next-action" in r.headers()),
      o.page.getByRole("button", { name: `Change role of ${email}` }).click(),
    ]);
    await memberRow(o.page, email).getByText("Role changed to admin.").waitFor({ timeout: 15_000 });
    await n.page.reload();
    await waitUntil("the admin role in the header", async () =>
      (await n.page.locator("header").innerText()).includes(`${email} · admin`),
    );
    await snapshot(o.page, "dashboard-team-role-changed");

    // An admin may not change the team: the owner's request replayed with the admin's session is refused.
    expect(await replay(action!)).toContain("Your role (admin) does not allow this.");
    // The last owner cannot step down.
    await o.page.getByLabel(`New role for ${owner.email}`).selectOption("viewer");
    await o.page.getByRole("button", { name: `Change role of ${owner.email}` }).click();
    await memberRow(o.page, owner.email)
      .getByText("A team keeps at least one owner: make someone else owner first.")
      .waitFor({ timeout: 15_000 });
    await snapshot(o.page, "dashboard-team-last-owner");

    // A key they made is listed under them.
    const [made] = await query<{ id: string }>(getDb(), "select id from users where email = $1", [email]);
    const theirs = await createApiKey(getDb(), {
      merchantId: m.id,
      mode: "sandbox",
      scopes: ["payments:read"],
      createdByUserId: made!.id,
    });
    await o.page.reload();
    const listed = await memberRow(o.page, email).locator("[data-member-keys]").innerText();
    expect(listed).toMatch(/^API keys they created \(revoked if they leave\): mnt_test_sk_\S*…\w{4} \(sandbox\)$/);
    expect((await api("GET", "/v1/payments?limit=1", { key: theirs.secret })).status).toBe(200);

    // Removed: the member's session ends on its next request, and their key with it.
    await o.page.getByRole("button", { name: `Remove ${email}` }).click();
    await waitUntil("the member's row to go", async () => (await memberRow(o.page, email).count()) === 0);
    await n.page.reload();
    await n.page.waitForURL(/\/dashboard\/sign-in$/, { timeout: 15_000 });
    await waitUntil(
      "their key refused",
      async () => (await api("GET", "/v1/payments?limit=1", { key: theirs.secret })).status === 401,
    );

    // A pending invitation revoked: its link stops working.
    const other = `olga.${Date.now()}@shop.test`;
    const revokedLink = await invite(o.page, other, "viewer");
    await o.page.reload();
    await o.page.getByRole("button", { name: `Revoke invitation for ${other}` }).click();
    await o.page.getByText("No pending invitations. Invite a teammate above.").waitFor({ timeout: 15_000 });
    await again.page.goto(revokedLink);
    await again.page.getByText("This invitation was revoked.").waitFor();
    // Inviting an email that already has an account: said next to the field.
    await o.page.getByLabel("Email", { exact: true }).fill(owner.email);
    await o.page.getByRole("button", { name: "Invite", exact: true }).click();
    await o.page.locator("#invite-error").getByText(`${owner.email} already has a dashboard account.`).waitFor();
    await snapshot(o.page, "dashboard-team-invite-error");
    await snapshotWide(o.page, "dashboard-team");

    expect(await auditActions()).toEqual([
      "invitation.created",
      "invitation.accepted",
      "user.role_changed",
      "user.removed",
      "invitation.created",
      "invitation.revoked",
    ]);
    for (const v of [o, n, again]) expect(v.errors).toEqual([]);
  }, 180_000); // The phase's longest flow (three people, eight snapshots): 81 s under one CPU hog; this catches hangs.

  it("with SMTP_URL set, the invitation is emailed with the link; " +
    "a refused recipient is reported, the link still shown", async () => {
    const smtp = await startSmtpReceiver();
    let web: SpawnedWebServer | undefined;
    try {
      const root = path.resolve(import.meta.dirname, "..");
      web = await spawnWebServer(root, {
        DATABASE_URL: inject("databaseUrl"),
        MASTER_KEY: inject("masterKey"),
        REDIS_KEY_PREFIX: inject("redisKeyPrefix"),
        DATA_DIR: path.join(root, ".data", "test"),
        LOG_LEVEL: "error",
        TRUST_PROXY: "true",
        SMTP_URL: `smtp://127.0.0.1:${smtp.port}`,
        SMTP_FROM: "Quince payments <no-reply@quince.test>",
      });
      const owner = await newUserWithApp(m.id, "owner");
      const o = await visitor();
      await o.page.goto(`${web.url}/dashboard/sign-in`);
      await signInWithCode(o.page, owner);
      await o.page.goto(`${web.url}/dashboard/team`);
      const email = `mail.${Date.now()}@shop.test`;
      const link = await invite(o.page, email, "viewer");
      await o.page.getByText(`Emailed to ${email}.`).waitFor();
      expect(smtp.mails).toHaveLength(1);
      const [mail] = smtp.mails;
      expect(mail!.to).toEqual([email]);
      expect(mail!.from).toContain("no-reply@quince.test");
      expect(mail!.data).toContain(`Subject: You are invited to ${MERCHANT}'s payments dashboard`);
      expect(mail!.data).toContain(`Accept the invitation and choose your password: ${link}`);
      await snapshot(o.page, "dashboard-team-emailed");

      const bounce = `bounce.${Date.now()}@shop.test`;
      const shown = await invite(o.page, bounce, "viewer");
      expect(shown).toMatch(/\/dashboard\/invite\/[0-9A-Za-z]{32}$/);
      const failure = await o.page.getByText("The email could not be sent").innerText();
      expect(failure).toContain("550");
      expect(failure).toContain("Send the link yourself.");
      expect(smtp.mails).toHaveLength(1);
      await snapshot(o.page, "dashboard-team-email-failed");
    } finally {
      await web?.stop();
      await smtp.close();
    }
  }, 150_000); // It starts a web server of its own (a 90 s hang detector) before its flow.
});
