import type { Browser, BrowserContext, CDPSession, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/lib/platform/db/client";
import { query } from "@/lib/platform/db/query";
import { newMerchant } from "@/tests/helpers/api";
import { getRateLimiter, LIMITS, WINDOW_MS } from "@/lib/platform/rate-limit/policies";
import { launchBrowser, site, snapshot, snapshotWide, VIEWPORT, waitUntil } from "./helpers/browser";
import { type DashboardUser, newUser, newVisitor, passwordError } from "./helpers/dashboard";

// Passkeys in Chromium's virtual authenticator (a platform authenticator with user verification, through
// the DevTools protocol). WebAuthn needs a domain, not an IP, as its relying party: these pages are opened
// on localhost, the host of the test servers' PUBLIC_BASE_URL.
let browser: Browser;
let owner: DashboardUser;
const contexts: BrowserContext[] = [];
const onLocalhost = (pathname: string) => site(pathname).replace("//127.0.0.1:", "//localhost:");
const alert = (page: Page) =>
  waitUntil("an error message", async () => {
    const el = page.locator('p[role="alert"]').first();
    return (await el.count()) ? (await el.innerText()).trim() : null;
  });

/** A browser whose "device" is a virtual authenticator holding discoverable credentials. */
async function deviceBrowser(): Promise<{ page: Page; cdp: CDPSession; authenticatorId: string; errors: string[] }> {
  const v = await newVisitor(browser);
  contexts.push(v.context);
  const cdp = await v.context.newCDPSession(v.page);
  await cdp.send("WebAuthn.enable");
  const { authenticatorId } = await cdp.send("WebAuthn.addVirtualAuthenticator", {
    options: {
      protocol: "ctap2",
      transport: "internal",
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
  return { page: v.page, cdp, authenticatorId, errors: v.errors };
}

/** Types the password sign-in on this localhost page (submitSignIn would open the 127.0.0.1 one). */
async function typePassword(page: Page, user: DashboardUser) {
  expect(page.url()).toBe(onLocalhost("/dashboard/sign-in"));
  await page.getByLabel("Email").fill(user.email);
  await page.getByLabel("Password").fill(user.password);
  await page.getByRole("button", { name: "Sign in" }).click();
}

/**
 * Signs out with the header's button (the session row ends). Clearing cookies instead races the page's
 * keep-alive, whose late answer can set the session cookie again.
 */
async function signOut(page: Page) {
  await page.getByRole("button", { name: "Sign out", exact: true }).click();
  await page.waitForURL(onLocalhost("/dashboard/sign-in"), { timeout: 15_000 });
}

async function signInWithPassword(page: Page, user: DashboardUser) {
  await page.goto(onLocalhost("/dashboard/sign-in"));
  await typePassword(page, user);
  await page.getByRole("heading", { name: "Home" }).waitFor({ timeout: 20_000 });
}

beforeAll(async () => {
  browser = await launchBrowser();
  owner = await newUser((await newMerchant("Passkey Pottery")).id, "owner");
});
afterAll(async () => {
  for (const c of contexts) await c.close();
  await browser?.close();
});

describe("dashboard passkeys", () => {
  let device: Awaited<ReturnType<typeof deviceBrowser>>;

  it("adds a passkey from Security (first factor: password asked, recovery codes shown once)", async () => {
    device = await deviceBrowser();
    const { page } = device;
    await signInWithPassword(page, owner);
    await page.goto(onLocalhost("/dashboard/security"));
    await page.getByLabel("Current password").fill(owner.password);
    await page.getByLabel("Passkey name").fill("Test laptop");
    await page.getByRole("button", { name: "Add a passkey" }).click();
    await page.getByText("Passkey added.").waitFor({ timeout: 20_000 });
    expect(await page.getByRole("list", { name: "Recovery codes" }).getByRole("listitem").count()).toBe(10);
    await page.locator("li[data-passkey] strong").getByText("Test laptop").waitFor({ timeout: 15_000 });
    const { credentials } = await device.cdp.send("WebAuthn.getCredentials", {
      authenticatorId: device.authenticatorId,
    });
    expect(credentials).toHaveLength(1);
    const [stored] = await query<{ id: string; name: string }>(
      getDb(),
      "select id, name from user_passkeys where user_id = $1",
      [owner.id],
    );
    expect(stored).toEqual({
      id: credentials[0]!.credentialId.replace(/=+$/, "").replace(/\+/g, "-").replace(/\//g, "_"),
      name: "Test laptop",
    });
    await snapshot(page, "dashboard-security-passkey");
    await snapshotWide(page, "dashboard-security-passkey");
    expect(device.errors).toEqual([]);
  });

  it("signs in with the passkey alone, and the password now asks for a second factor", async () => {
    const { page, errors } = device;
    await signOut(page);
    await page.getByRole("button", { name: "Use a passkey" }).click();
    await page.getByRole("heading", { name: "Home" }).waitFor({ timeout: 20_000 });
    const [audit] = await query<{ details: { second_factor: string } }>(
      getDb(),
      "select details from audit_log where user_id = $1 and action = 'user.signed_in' order by created_at desc limit 1",
      [owner.id],
    );
    expect(audit?.details.second_factor).toBe("passkey");

    await signOut(page);
    await typePassword(page, owner);
    await page.getByLabel("Authentication code").waitFor();
    await page.getByRole("button", { name: "Use a passkey" }).click();
    await page.getByRole("heading", { name: "Home" }).waitFor({ timeout: 20_000 });
    expect(errors).toEqual([]);
  });

  it(
    "someone's wrong passwords slow only their own client: " + "the owner still gets in, by passkey and elsewhere",
    async () => {
      const attacker = await newVisitor(browser);
      contexts.push(attacker.context);
      const { page } = attacker;
      await page.goto(onLocalhost("/dashboard/sign-in"));
      const submit = async (password: string) => {
        await page.getByLabel("Email").fill(owner.email);
        await page.getByLabel("Password").fill(password);
        await Promise.all([
          page.waitForResponse((r) => r.url().includes("/api/auth/callback/credentials")),
          page.getByRole("button", { name: "Sign in" }).click(),
        ]);
      };
      for (let i = 0; i < 5; i++) await submit("not the password at all");
      await submit(owner.password);
      expect(await passwordError(page)).toMatch(/^Too many failed sign-ins\. Try again in \d+ seconds\.$/);

      // The owner: their passkey, and their password from another client (which asks for the second factor).
      await signOut(device.page);
      await device.page.getByRole("button", { name: "Use a passkey" }).click();
      await device.page.getByRole("heading", { name: "Home" }).waitFor({ timeout: 20_000 });
      const elsewhere = await newVisitor(browser);
      contexts.push(elsewhere.context);
      await elsewhere.page.goto(onLocalhost("/dashboard/sign-in"));
      await typePassword(elsewhere.page, owner);
      await elsewhere.page.getByLabel("Authentication code").waitFor();
      // The owner's audit log says someone reached the limit, from where.
      const [seen] = await query<{ details: { client: string; kind: string } }>(
        getDb(),
        "select details from audit_log where target = $1 and action = 'user.sign_in_failures'",
        [owner.id],
      );
      expect(seen?.details).toMatchObject({ kind: "password", client: attacker.ip });
    },
  );

  it("a browser without that passkey cannot sign in with one", async () => {
    const other = await deviceBrowser();
    await other.page.goto(onLocalhost("/dashboard/sign-in"));
    await other.page.getByRole("button", { name: "Use a passkey" }).click();
    expect(await alert(other.page)).toMatch(/passkey/i);
    expect(new URL(other.page.url()).pathname).toBe("/dashboard/sign-in");
  });

  it("a client IP gets 30 passkey challenges a minute, then a wait message", async () => {
    const ip = `10.77.${Math.floor(Math.random() * 250)}.${1 + Math.floor(Math.random() * 250)}`;
    const context = await browser.newContext({ viewport: VIEWPORT, extraHTTPHeaders: { "X-Forwarded-For": ip } });
    contexts.push(context);
    for (let i = 0; i < LIMITS.passkey_challenges; i++)
      expect(
        (await getRateLimiter().hit(`ip:${ip}:passkey_challenges`, LIMITS.passkey_challenges, WINDOW_MS)).allowed,
      ).toBe(true);
    const page = await context.newPage();
    await page.goto(onLocalhost("/dashboard/sign-in"));
    await page.getByRole("button", { name: "Use a passkey" }).click();
    expect(await alert(page)).toMatch(/^Too many passkey attempts\. Try again in \d+ seconds\.$/);
  });

  it("step-up with the passkey, then removing it", async () => {
    const { page, errors } = device;
    await query(
      getDb(),
      "update user_sessions set second_factor_at = now() - interval '6 minutes' " +
        "where user_id = $1 and ended_at is null",
      [owner.id],
    );
    await page.goto(onLocalhost("/dashboard/security"));
    await page.getByRole("button", { name: "Remove passkey Test laptop" }).click();
    expect(await alert(page)).toContain("Confirm it's you with your second factor first.");
    await page.getByRole("link", { name: "Confirm with your second factor" }).click();
    await page.getByRole("button", { name: "Use a passkey" }).click();
    await page.waitForURL(/\/dashboard\/security$/, { timeout: 20_000 });
    await page.getByRole("button", { name: "Remove passkey Test laptop" }).click();
    await page.getByText("No second factor yet").waitFor({ timeout: 15_000 });
    expect(await query(getDb(), "select 1 from user_passkeys where user_id = $1", [owner.id])).toEqual([]);
    expect(await query(getDb(), "select 1 from user_recovery_codes where user_id = $1", [owner.id])).toEqual([]);
    const actions = await query<{ action: string }>(getDb(), "select action from audit_log where user_id = $1", [
      owner.id,
    ]);
    expect(actions.map((a) => a.action)).toEqual(
      expect.arrayContaining(["user.passkey_added", "user.stepped_up", "user.passkey_removed"]),
    );
    expect(errors).toEqual([]);
  });
});
