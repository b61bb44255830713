import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/lib/platform/db/client";
import { query } from "@/lib/platform/db/query";
import { api, expectRefusedWithin, newMerchant, type TestMerchant } from "@/tests/helpers/api";
import { launchBrowser, site, snapshot, snapshotWide, waitUntil } from "./helpers/browser";
import { newUser, newUserWithApp, newVisitor, nextTotpCode, signIn, signInWithCode } from "./helpers/dashboard";

// API keys as a developer meets them: restricted scopes enforced on /v1, live keys behind step-up, a roll that
// keeps the old secret working for 24 hours, and a revoke that needs a second click.
let browser: Browser;
let m: TestMerchant;
const contexts: BrowserContext[] = [];
const visitor = async () => {
  const v = await newVisitor(browser);
  contexts.push(v.context);
  return v;
};
const alert = (page: Page) =>
  waitUntil("an error message", async () => {
    const el = page.locator('p[role="alert"]').first();
    return (await el.count()) ? (await el.innerText()).trim() : null;
  });
const newSecret = async (page: Page, scope = page.locator("body")) => {
  const box = scope.getByLabel("New secret key (shown only this once)");
  await box.waitFor({ timeout: 15_000 });
  return box.inputValue();
};
const keysPage = async (page: Page) => {
  await page.goto(site("/dashboard/keys"));
  await page.getByRole("heading", { name: "API keys" }).waitFor();
};

beforeAll(async () => {
  [browser, m] = await Promise.all([launchBrowser(), newMerchant("Keystone Coffee", { sandboxChains: false })]);
});
afterAll(async () => {
  for (const c of contexts) await c.close();
  await browser?.close();
});

describe("dashboard API keys", () => {
  it("a sandbox key with restricted scopes: the allowed call is 200, another is refused", async () => {
    const { page, errors } = await visitor();
    await signIn(page, await newUser(m.id, "developer"));
    await page.getByRole("link", { name: "API keys" }).click();
    await page.getByRole("heading", { name: "API keys" }).waitFor();
    await snapshotWide(page, "dashboard-keys");
    for (const box of await page.getByRole("checkbox").all()) {
      const scope = await box.getAttribute("value");
      if (scope !== "payment_links:read") await box.uncheck();
    }
    await page.getByRole("button", { name: "Create key" }).click();
    const secret = await newSecret(page);
    expect(secret).toMatch(/^mnt_test_sk_[0-9A-Za-z]{43}$/);
    expect(await page.getByRole("button", { name: "Copy secret" }).count()).toBe(1);
    await snapshot(page, "dashboard-keys-restricted-created");
    expect((await api("GET", "/v1/payment-links", { key: secret })).status).toBe(200);
    const refused = await api("GET", "/v1/payments", { key: secret });
    expect(refused.status).toBe(403);
    await keysPage(page);
    const row = page.locator("li[data-key]").first();
    expect(await row.innerText()).toContain("Scopes: payment_links:read");

    // No scope at all is refused next to the scopes.
    for (const box of await page.getByRole("checkbox").all()) await box.uncheck();
    await page.getByRole("button", { name: "Create key" }).click();
    expect(await alert(page)).toBe("Choose at least one scope.");
    expect(errors).toEqual([]);
  });

  it(
    "a live key: refused without a fresh second factor (with the way to confirm), " + "created after the code",
    async () => {
      const owner = await newUserWithApp(m.id, "owner");
      const { page, errors } = await visitor();
      await signInWithCode(page, owner);
      // Six minutes later, as far as the server knows: step-up has lapsed.
      await query(
        getDb(),
        "update user_sessions set second_factor_at = now() - interval '6 minutes' where user_id = $1",
        [owner.id],
      );
      await keysPage(page);
      await page.getByRole("button", { name: "Live" }).click();
      await page.getByRole("button", { name: "Live", pressed: true }).waitFor({ timeout: 15_000 });
      await keysPage(page);
      const liveCount = async () =>
        (await query(getDb(), "select id from api_keys where merchant_id = $1 and mode = 'live'", [m.id])).length;
      const before = await liveCount();
      await page.getByRole("button", { name: "Create key" }).click();
      expect(await alert(page)).toContain("Confirm it's you with your second factor first.");
      await snapshot(page, "dashboard-keys-live-step-up");
      expect(await liveCount()).toBe(before);
      await page.getByRole("link", { name: "Confirm with your second factor" }).click();
      await page.getByLabel("Authentication code").fill(await nextTotpCode(owner));
      await page.getByRole("button", { name: "Confirm" }).click();
      await page.waitForURL(/\/dashboard\/keys$/);
      await page.getByRole("button", { name: "Create key" }).click();
      const secret = await newSecret(page);
      expect(secret).toMatch(/^mnt_live_sk_/);
      expect((await api("GET", "/v1/balances", { key: secret })).status).toBe(200);
      expect(await liveCount()).toBe(before + 1);
      await snapshotWide(page, "dashboard-keys-live-created");
      expect(errors).toEqual([]);
    },
  );

  it("roll keeping the old key 24 hours: both secrets work; revoke after confirming: 401", async () => {
    const { page, errors } = await visitor();
    await signIn(page, await newUser(m.id, "admin"));
    await keysPage(page);
    const old = page.locator(`li[data-key="${m.sandboxKeyId}"]`);
    await old.getByLabel("Old key keeps working").selectOption("24h");
    await old.getByRole("button", { name: /^Roll key / }).click();
    const rolled = await newSecret(page, old);
    await old.and(page.locator('[data-status="expiring"]')).waitFor({ timeout: 15_000 });
    expect(await old.innerText()).toMatch(/works until \d{4}-\d\d-\d\d \d\d:\d\d UTC/);
    await snapshot(page, "dashboard-keys-rolled");
    expect((await api("GET", "/v1/balances", { key: m.sandboxKey })).status).toBe(200);
    expect((await api("GET", "/v1/balances", { key: rolled })).status).toBe(200);

    await keysPage(page);
    const replacement = await query<{ id: string }>(getDb(), "select id from api_keys where replaces_key_id = $1", [
      m.sandboxKeyId,
    ]);
    const newId = replacement[0]!.id;
    const fresh = page.locator(`li[data-key="${newId}"]`);
    await fresh.getByRole("button", { name: /^Revoke .*…$/ }).click();
    const confirm = fresh.getByRole("button", { name: /^Revoke key mnt_test_sk_/ });
    await confirm.waitFor();
    await snapshot(page, "dashboard-keys-revoke-confirm");
    expect((await api("GET", "/v1/balances", { key: rolled })).status).toBe(200); // nothing happens before the confirm
    await confirm.click();
    await fresh.and(page.locator('[data-status="revoked"]')).waitFor({ timeout: 15_000 });
    await expectRefusedWithin(rolled);
    const audit = await query<{ action: string }>(
      getDb(),
      "select action from audit_log where merchant_id = $1 and action like 'api_key.%' order by created_at",
      [m.id],
    );
    expect(audit.map((a) => a.action)).toEqual([
      "api_key.created",
      "api_key.created",
      "api_key.rolled",
      "api_key.revoked",
    ]);
    expect(errors).toEqual([]);
  });
});
