import type { Browser, BrowserContext, Request } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/lib/platform/db/client";
import { query } from "@/lib/platform/db/query";
import { api, newMerchant, type TestMerchant } from "@/tests/helpers/api";
import { launchBrowser, site, snapshot, snapshotWide } from "./helpers/browser";
import { newUser, newVisitor, signIn } from "./helpers/dashboard";

// Roles are enforced on the server: a viewer sees no "Create key", and the owner's very request replayed with
// the viewer's session (or none, or from another origin) changes nothing.
let browser: Browser;
let m: TestMerchant;
const contexts: BrowserContext[] = [];
const visitor = async () => {
  const v = await newVisitor(browser);
  contexts.push(v.context);
  return v;
};
const keyCount = async () =>
  (
    await query<{ n: number }>(
      getDb(),
      "select count(*)::int as n from api_keys where merchant_id = $1 and mode = 'sandbox'",
      [m.id],
    )
  )[0]!.n;

beforeAll(async () => {
  [browser, m] = await Promise.all([launchBrowser(), newMerchant("Juniper Books")]);
});
afterAll(async () => {
  for (const c of contexts) await c.close();
  await browser?.close();
});

describe("dashboard roles", () => {
  it("an owner creates a key (shown once, works on /v1); a viewer cannot, whatever it sends", async () => {
    const owner = await newUser(m.id, "owner");
    const o = await visitor();
    await signIn(o.page, owner);
    await o.page.getByRole("link", { name: "API keys" }).click();
    await o.page.getByRole("heading", { name: "API keys" }).waitFor();
    const before = await keyCount();
    const [action] = await Promise.all([
      o.page.waitForRequest((r: Request) => r.method() === "POST" && "next-action" in r.headers()),
      o.page.getByRole("button", { name: "Create key" }).click(),
    ]);
    const secretBox = o.page.getByLabel("New secret key (shown only this once)");
    await secretBox.waitFor({ timeout: 15_000 });
    const secret = await secretBox.inputValue();
    expect(secret).toMatch(/^mnt_test_sk_[0-9A-Za-z]{43}$/);
    expect((await api("GET", "/v1/payment-links", { key: secret })).status).toBe(200);
    expect(await keyCount()).toBe(before + 1);
    await snapshot(o.page, "dashboard-keys-created");

    const viewer = await newUser(m.id, "viewer");
    const v = await visitor();
    await signIn(v.page, viewer);
    await v.page.goto(site("/dashboard/keys"));
    await v.page.getByRole("heading", { name: "API keys" }).waitFor();
    expect(await v.page.getByRole("button", { name: "Create key" }).count()).toBe(0);
    expect(await v.page.locator("li[data-key]").count()).toBe(before + 1);
    await snapshot(v.page, "dashboard-keys-viewer");

    // The owner's request, replayed byte for byte with the viewer's cookies.
    const headers = Object.fromEntries(
      Object.entries(await action!.allHeaders()).filter(([k]) => !["cookie", "content-length"].includes(k)),
    );
    const body = action!.postDataBuffer()!;
    const asViewer = await v.context.request.post(action!.url(), { headers, data: body });
    const text = await asViewer.text();
    expect(text).toContain("Your role (viewer) does not allow this.");
    expect(text).not.toContain("mnt_test_sk_");
    // Without a session: refused (sent to sign-in); from another origin: refused by Next before the action.
    const stranger = await visitor();
    const anonymous = await stranger.context.request.post(action!.url(), { headers, data: body, maxRedirects: 0 });
    expect(await anonymous.text()).not.toContain("mnt_test_sk_");
    expect(JSON.stringify(anonymous.headers())).toContain("/dashboard/sign-in");
    const crossSite = await o.context.request.post(action!.url(), {
      headers: { ...headers, origin: "https://evil.example" },
      data: body,
      maxRedirects: 0,
    });
    expect(crossSite.status()).toBeGreaterThanOrEqual(400);
    expect(await crossSite.text()).not.toContain("mnt_test_sk_");
    expect(await keyCount()).toBe(before + 1);

    // Live keys need step-up: this owner signed in without a second factor, so the same request made in live
    // mode is refused and creates nothing.
    await o.page.goto(site("/dashboard/keys"));
    await o.page.getByRole("button", { name: "Live" }).click();
    await o.page.getByRole("button", { name: "Live", pressed: true }).waitFor({ timeout: 15_000 });
    await o.page.goto(site("/dashboard/keys"));
    await o.page.getByText("Live keys move real money").waitFor();
    const liveKeys = async () =>
      (await query(getDb(), "select id from api_keys where merchant_id = $1 and mode = 'live'", [m.id])).length;
    const liveBefore = await liveKeys();
    const inLive = await o.context.request.post(action!.url(), { headers, data: body });
    expect(await inLive.text()).toContain("Confirm it's you with your second factor first.");
    expect(await liveKeys()).toBe(liveBefore);

    const audit = await query<{ action: string; user_id: string }>(
      getDb(),
      "select action, user_id from audit_log where merchant_id = $1 and action = 'api_key.created'",
      [m.id],
    );
    expect(audit).toEqual([{ action: "api_key.created", user_id: owner.id }]);
  });

  it(
    "a viewer may read the home page; the audit log is the owner's alone (403 for admin and viewer); costs are the " +
      "owner's and admin's",
    async () => {
      const viewer = await newUser(m.id, "viewer");
      const v = await visitor();
      await signIn(v.page, viewer);
      expect(await v.page.locator("li[data-chain]").count()).toBe(5);
      expect(await v.page.getByRole("link", { name: "Audit log" }).count()).toBe(0);
      for (const [role, page] of [["viewer", v.page] as const, ["admin", (await visitor()).page] as const]) {
        if (role === "admin") await signIn(page, await newUser(m.id, "admin"));
        const res = await page.goto(site("/dashboard/audit"));
        expect(res?.status(), role).toBe(403);
        await page.getByRole("heading", { name: "You do not have access to this page" }).waitFor();
      }
      await snapshot(v.page, "dashboard-audit-forbidden");
      // The network fees are the owners' and admins' (costs:read): a viewer has no link and gets the 403 page.
      expect(await v.page.getByRole("link", { name: "Costs" }).count()).toBe(0);
      expect((await v.page.goto(site("/dashboard/costs")))?.status()).toBe(403);
      const a = await visitor();
      await signIn(a.page, await newUser(m.id, "admin"));
      await a.page.getByRole("link", { name: "Costs" }).click();
      await a.page.getByRole("heading", { name: "Costs" }).waitFor();
      await a.page.getByText(/^No network fees since \d{4}-\d{2}-\d{2}\.$/).waitFor();

      const owner = await newUser(m.id, "owner");
      const o = await visitor();
      await signIn(o.page, owner);
      await o.page.getByRole("link", { name: "Audit log" }).click();
      await o.page.getByRole("heading", { name: "Audit log" }).waitFor();
      const latest = o.page.locator("li[data-audit]").first();
      expect(await latest.getAttribute("data-audit")).toBe("user.signed_in");
      const text = await latest.innerText();
      expect(text).toContain(owner.email);
      expect(text).toMatch(/ · 10\.\d+\.\d+\.\d+ · Mozilla\//);
      expect(await o.page.locator('li[data-audit="api_key.created"]').count()).toBe(1);
      await snapshot(o.page, "dashboard-audit");
      await snapshotWide(o.page, "dashboard-audit");
    },
  );
});
