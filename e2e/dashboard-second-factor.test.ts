import { generate } from "otplib";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/lib/platform/db/client";
import { query } from "@/lib/platform/db/query";
import { newMerchant } from "@/tests/helpers/api";
import { decodeQr, launchBrowser, qrBox, site, snapshot, snapshotWide, waitUntil } from "./helpers/browser";
import { type DashboardUser, newUser, newVisitor, signIn, submitSignIn } from "./helpers/dashboard";

// Second factors as a user meets them: turning an authenticator app on from Security, signing in with its
// code, step-up with a recovery code before removing it, and ending another browser's session.
let browser: Browser;
let owner: DashboardUser;
const contexts: BrowserContext[] = [];
const visitor = async () => {
  const v = await newVisitor(browser);
  contexts.push(v.context);
  return v;
};
/** The app's code `steps` periods ahead (later periods only: a past one could leave the window mid-test). */
const codeAt = (secret: string, steps: number) =>
  generate({ secret, epoch: Math.floor(Date.now() / 1000) + 30 * steps });
const alert = (page: Page) =>
  waitUntil("an error message", async () => {
    // p[role=alert]: Next's route announcer is an alert too.
    const el = page.locator('p[role="alert"]').first();
    return (await el.count()) ? (await el.innerText()).trim() : null;
  });

beforeAll(async () => {
  browser = await launchBrowser();
  owner = await newUser((await newMerchant("Totp Tea")).id, "owner");
});
afterAll(async () => {
  for (const c of contexts) await c.close();
  await browser?.close();
});

describe("dashboard second factors", () => {
  let secret = "";
  let recovery: string[] = [];

  it(
    "turns an authenticator app on: QR code and key, " + "a wrong code refused, then recovery codes shown once",
    async () => {
      const { page, errors } = await visitor();
      await signIn(page, owner);
      await page.getByRole("link", { name: "Security" }).click();
      await page.getByRole("heading", { name: "Security" }).waitFor();
      // The first factor asks for the password, so a borrowed session cannot plant one.
      await page.getByLabel("Current password").fill("not the password");
      await page.getByRole("button", { name: "Add an authenticator app" }).click();
      expect(await alert(page)).toBe("Wrong password.");
      expect(await page.getByLabel("Current password").getAttribute("aria-invalid")).toBe("true");
      await page.getByLabel("Current password").fill(owner.password);
      await page.getByRole("button", { name: "Add an authenticator app" }).click();
      await page.getByLabel("Code from the app").waitFor();
      secret = (await page.getByTestId("totp-secret").innerText()).trim();
      const uri = new URL(await decodeQr(qrBox(page)));
      expect(uri.protocol).toBe("otpauth:");
      expect(uri.searchParams.get("secret")).toBe(secret);
      expect(uri.host).toBe("totp");
      expect(decodeURIComponent(uri.pathname)).toBe(`/USDT Payments:${owner.email}`);
      await snapshot(page, "dashboard-security-totp-qr");

      await page.getByLabel("Code from the app").fill("000000");
      await page.getByRole("button", { name: "Turn on" }).click();
      expect(await alert(page)).toBe("Wrong code. Enter the 6-digit code the app shows now.");
      await page.getByLabel("Code from the app").fill(await codeAt(secret, 0));
      await page.getByRole("button", { name: "Turn on" }).click();
      const list = page.getByRole("list", { name: "Recovery codes" });
      await list.waitFor();
      recovery = (await list.getByRole("listitem").allInnerTexts()).map((c) => c.trim());
      expect(recovery).toHaveLength(10);
      await snapshot(page, "dashboard-security-recovery-codes");
      await snapshotWide(page, "dashboard-security-recovery-codes");
      await page.reload();
      expect(await page.getByText("Authenticator app: on").count()).toBe(1);
      expect(await page.getByRole("list", { name: "Recovery codes" }).count()).toBe(0);
      expect(errors).toEqual([]);
    },
  );

  it("sign-in asks for the code after the password; a wrong code is shown next to its field", async () => {
    const { page, errors } = await visitor();
    await submitSignIn(page, owner.email, owner.password);
    const code = page.getByLabel("Authentication code");
    await code.waitFor();
    expect(await page.getByLabel("Password").isVisible()).toBe(false);
    await snapshot(page, "dashboard-sign-in-code");
    await code.fill("111111");
    await page.getByRole("button", { name: "Verify" }).click();
    expect(await alert(page)).toMatch(/^Wrong code\./);
    expect(await code.getAttribute("aria-describedby")).toContain("code-error");
    await code.fill(await codeAt(secret, 1));
    await page.getByRole("button", { name: "Verify" }).click();
    await page.getByRole("heading", { name: "Home" }).waitFor({ timeout: 20_000 });
    expect(errors).toEqual([]);
  });

  it("removing the app needs step-up: refused when stale, confirmed with a recovery code, then removed", async () => {
    const { page, errors } = await visitor();
    await submitSignIn(page, owner.email, owner.password);
    await page.getByLabel("Authentication code").fill(recovery[0]!);
    await page.getByRole("button", { name: "Verify" }).click();
    await page.getByRole("heading", { name: "Home" }).waitFor({ timeout: 20_000 });
    // Six minutes later, as far as the server knows.
    await query(
      getDb(),
      `update user_sessions set second_factor_at = now() - interval '6 minutes'
        where user_id = $1 and ended_at is null`,
      [owner.id],
    );
    await page.goto(site("/dashboard/security"));
    expect(await page.getByText("Recovery codes left: 9").count()).toBe(1);
    await page.getByRole("button", { name: "Remove authenticator app" }).click();
    expect(await alert(page)).toContain("Confirm it's you with your second factor first.");
    await page.getByRole("link", { name: "Confirm with your second factor" }).click();
    await page.getByRole("heading", { name: "Confirm it's you" }).waitFor();
    await snapshot(page, "dashboard-step-up");
    await snapshotWide(page, "dashboard-step-up");
    await page.getByLabel("Authentication code").fill(recovery[0]!);
    await page.getByRole("button", { name: "Confirm" }).click();
    expect(await alert(page)).toMatch(/^Wrong code\./); // spent at sign-in
    await page.getByLabel("Authentication code").fill(recovery[1]!);
    await page.getByRole("button", { name: "Confirm" }).click();
    await page.waitForURL(/\/dashboard\/security$/);
    await page.getByRole("button", { name: "Remove authenticator app" }).click();
    await page.getByText("No second factor yet").waitFor({ timeout: 15_000 });
    const audit = await query<{ action: string }>(getDb(), "select action from audit_log where user_id = $1", [
      owner.id,
    ]);
    expect(audit.map((a) => a.action)).toEqual(
      expect.arrayContaining(["user.totp_enabled", "user.stepped_up", "user.totp_removed"]),
    );
    expect(errors).toEqual([]);
  });

  it("lists open sessions and ends another browser's from Security", async () => {
    const first = await visitor();
    const second = await visitor();
    await signIn(first.page, owner);
    await signIn(second.page, owner);
    await first.page.goto(site("/dashboard/security"));
    const rows = first.page.locator("li[data-session]");
    expect(await rows.count()).toBeGreaterThanOrEqual(2);
    expect(await first.page.getByText("This browser ·").count()).toBe(1);
    await snapshot(first.page, "dashboard-security-sessions");
    await snapshotWide(first.page, "dashboard-security-sessions");
    const [secondSession] = await query<{ id: string }>(
      getDb(),
      "select id from user_sessions where user_id = $1 and ended_at is null order by created_at desc limit 1",
      [owner.id],
    );
    await first.page
      .locator(`li[data-session="${secondSession!.id}"]`)
      .getByRole("button", { name: /^End session/ })
      .click();
    await first.page.locator(`li[data-session="${secondSession!.id}"]`).waitFor({ state: "detached", timeout: 15_000 });
    await second.page.goto(site("/dashboard"));
    expect(new URL(second.page.url()).pathname).toBe("/dashboard/sign-in");
    await first.page.goto(site("/dashboard"));
    expect(new URL(first.page.url()).pathname).toBe("/dashboard");
  });
});
