import type { Browser, BrowserContext, Request } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/lib/platform/db/client";
import { query } from "@/lib/platform/db/query";
import { api, newMerchant, type TestMerchant } from "@/tests/helpers/api";
import { decodeQr, launchBrowser, site, snapshot, snapshotWide } from "./helpers/browser";
import { newUser, newVisitor, signIn } from "./helpers/dashboard";

// Payment links from the dashboard: made with amount and description (links:write), the URL with its QR
// code, the public /pay page showing it; active and expired apart; a viewer only reads.
const MERCHANT = "Larkspur Tea";
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

const linkCount = async () =>
  (await query(getDb(), "select id from payment_links where merchant_id = $1", [m.id])).length;
let createAction: Request;

describe("dashboard payment links", () => {
  it("refuses without a session: redirect to sign-in", async () => {
    const res = await fetch(site("/dashboard/links"), { redirect: "manual" });
    expect([res.status, res.headers.get("location")]).toEqual([307, "/dashboard/sign-in"]);
  });

  it("an admin creates a link: URL with copy and QR; its /pay page shows it; active and expired lists", async () => {
    const admin = await newUser(m.id, "admin");
    const { page, errors } = await visitor();
    await signIn(page, admin);
    await page.getByRole("link", { name: "Payment links" }).click();
    await page.getByRole("heading", { name: "Payment links" }).waitFor();
    await page.getByText("No active sandbox links. Create one above").waitFor();
    await snapshot(page, "dashboard-links-empty");

    await page.getByLabel("Amount (USDT)").fill("12.1234567");
    await page.getByRole("button", { name: "Create link" }).click();
    const amountError = page.locator("#amount-error");
    await amountError.waitFor({ timeout: 15_000 });
    expect(await amountError.innerText()).toMatch(/6 decimal/);
    expect(await page.getByLabel("Amount (USDT)").getAttribute("aria-describedby")).toBe("amount-error");
    await snapshot(page, "dashboard-links-invalid");

    await page.getByLabel("Amount (USDT)").fill("7.25");
    await page.getByLabel("Description (optional)").fill("Oolong sampler");
    [createAction] = await Promise.all([
      page.waitForRequest((r: Request) => r.method() === "POST" && "next-action" in r.headers()),
      page.getByRole("button", { name: "Create link" }).click(),
    ]);
    const urlBox = page.getByLabel("Link for 7.250000 USDT (active for 30 minutes)");
    await urlBox.waitFor({ timeout: 15_000 });
    const url = await urlBox.inputValue();
    expect(url).toMatch(/\/pay\/[0-9A-Za-z]{32}$/);
    expect(await page.getByRole("button", { name: "Copy link URL" }).count()).toBe(1);
    expect(await decodeQr(page.locator("svg:has(> title)").locator("xpath=.."))).toBe(url);
    const fromApi = await api("GET", "/v1/payment-links", { key: m.sandboxKey });
    expect(fromApi.json.data[0]).toMatchObject({
      url,
      amount: "7.250000",
      description: "Oolong sampler",
      active: true,
    });
    await snapshot(page, "dashboard-links-created");
    await snapshotWide(page, "dashboard-links-created");

    await page.reload();
    const row = page.locator("li[data-link]");
    expect(await row.count()).toBe(1);
    expect(await row.innerText()).toContain("7.250000 USDT");

    const pay = await visitor();
    const res = await pay.page.goto(site(new URL(url).pathname));
    expect(res?.status()).toBe(200);
    expect(await pay.page.getByRole("region", { name: "Amount" }).innerText()).toMatch(
      /7\.25\s+USDT[\s\S]*Oolong sampler/,
    );
    expect(await pay.page.getByText(MERCHANT, { exact: true }).count()).toBe(1);

    // Expired links are listed apart.
    await query(getDb(), "update payment_links set expires_at = now() - interval '1 minute' where merchant_id = $1", [
      m.id,
    ]);
    await page.reload();
    await page.getByText("No active sandbox links.").waitFor();
    await page.getByRole("link", { name: "Expired" }).click();
    await page.waitForURL(/state=expired/);
    await page.locator("li[data-link]").first().waitFor();
    expect(await page.locator("li[data-link]").innerText()).toMatch(/7\.250000 USDT[\s\S]*expired/);
    await snapshot(page, "dashboard-links-expired");
    await snapshotWide(page, "dashboard-links-expired");
    const audit = await query(
      getDb(),
      "select user_id from audit_log where merchant_id = $1 and action = 'payment_link.created'",
      [m.id],
    );
    expect(audit).toEqual([{ user_id: admin.id }]);
    expect(errors).toEqual([]);
  });

  it("a viewer sees the links but no Create link", async () => {
    const viewer = await newUser(m.id, "viewer");
    const { page } = await visitor();
    await signIn(page, viewer);
    await page.goto(site("/dashboard/links?state=expired"));
    await page.getByRole("heading", { name: "Payment links" }).waitFor();
    expect(await page.locator("li[data-link]").count()).toBe(1);
    expect(await page.getByRole("button", { name: "Create link" }).count()).toBe(0);
    expect(await page.getByLabel("Amount (USDT)").count()).toBe(0);
    await snapshot(page, "dashboard-links-viewer");

    // The admin's "Create link" request, replayed byte for byte with the viewer's session: refused.
    const before = await linkCount();
    const headers = Object.fromEntries(
      Object.entries(await createAction.allHeaders()).filter(([k]) => !["cookie", "content-length"].includes(k)),
    );
    const replay = await page.context().request.post(createAction.url(), {
      headers,
      data: createAction.postDataBuffer()!,
    });
    expect(await replay.text()).toContain("Your role (viewer) does not allow this.");
    expect(await linkCount()).toBe(before);
  });
});
