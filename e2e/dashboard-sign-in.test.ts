import fs from "node:fs";
import path from "node:path";
import type { Browser, BrowserContext } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/lib/platform/db/client";
import { query } from "@/lib/platform/db/query";
import { adjustBalance } from "@/lib/books/ledger/adjust-balance";
import { api, newMerchant, type TestMerchant } from "@/tests/helpers/api";
import { launchBrowser, site, snapshot, snapshotWide, waitUntil } from "./helpers/browser";
import { type DashboardUser, newUser, newVisitor, passwordError, signIn, submitSignIn } from "./helpers/dashboard";

// The dashboard's first slice, as a merchant's team sees it: sign in with a password, the home balances and
// payments, wrong passwords and the lockout, pages refused without a session, sign out of all sessions.
/** The URL of every page.tsx under app/dashboard/(signed-in), a made-up id in each `[param]`. */
function signedInPages(): string[] {
  const base = path.resolve(import.meta.dirname, "../app/dashboard/(signed-in)");
  return (fs.readdirSync(base, { recursive: true }) as string[])
    .filter((f) => path.basename(f) === "page.tsx")
    .map((f) => `/dashboard/${path.dirname(f)}`.replace(/\/\.$/, "").replace(/\[[^\]]+\]/g, "x_id"))
    .sort();
}

let browser: Browser;
let m: TestMerchant;
let owner: DashboardUser;
const contexts: BrowserContext[] = [];
const visitor = async () => {
  const v = await newVisitor(browser);
  contexts.push(v.context);
  return v;
};

beforeAll(async () => {
  [browser, m] = await Promise.all([launchBrowser(), newMerchant("Harbor Bikes")]);
  owner = await newUser(m.id, "owner");
  await adjustBalance(getDb(), {
    merchantId: m.id,
    mode: "sandbox",
    chain: "tron",
    amount: 12_500_000n,
    reason: "e2e",
  });
  await adjustBalance(getDb(), { merchantId: m.id, mode: "sandbox", chain: "eth", amount: 3_000_001n, reason: "e2e" });
});
afterAll(async () => {
  for (const c of contexts) await c.close();
  await browser?.close();
});

describe("dashboard sign-in", () => {
  it("signs in with a password and shows each chain's balances and the recent payments, sandbox marked", async () => {
    const created = await api("POST", "/v1/payments", {
      key: m.sandboxKey,
      body: { amount: "4.200000", chain: "polygon" },
    });
    expect(created.status, created.text).toBe(200);
    const { page, errors } = await visitor();
    const res = await page.goto(site("/dashboard"));
    expect(new URL(page.url()).pathname).toBe("/dashboard/sign-in");
    expect(res?.headers()["content-security-policy"]).toMatch(/script-src 'self' 'nonce-[^']+' 'strict-dynamic'/);
    await snapshot(page, "dashboard-sign-in");
    await snapshotWide(page, "dashboard-sign-in");
    await signIn(page, owner);

    const card = (chain: string) => page.locator(`li[data-chain="${chain}"]`);
    expect(await page.locator("li[data-chain]").count()).toBe(5);
    expect((await card("tron").innerText()).replace(/\s+/g, " ")).toBe(
      "Tron Available 12.500000 USDT Reserved 0.000000 USDT In flight 0.000000 USDT Balance history",
    );
    expect(await card("eth").innerText()).toContain("3.000001 USDT");
    const balances = (await api("GET", "/v1/balances", { key: m.sandboxKey })).json.data;
    for (const b of balances) expect(await card(b.chain).innerText()).toContain(`${b.available} USDT`);
    const payment = page.locator(`li[data-payment="${created.json.id}"]`);
    expect((await payment.innerText()).replace(/\s+/g, " ")).toMatch(/^4\.200000 USDT awaiting_payment Polygon/);
    expect(await page.getByRole("note").innerText()).toContain("Sandbox data");
    expect(await page.getByRole("button", { name: "Sandbox" }).getAttribute("aria-pressed")).toBe("true");
    await snapshot(page, "dashboard-home-sandbox");
    await snapshotWide(page, "dashboard-home-sandbox");

    // The switch: live has no chain configured on the test servers, and no sandbox banner.
    await page.getByRole("button", { name: "Live" }).click();
    await page.getByText("No live chain is configured").waitFor({ timeout: 15_000 });
    expect(await page.getByRole("button", { name: "Live" }).getAttribute("aria-pressed")).toBe("true");
    expect(await page.getByRole("note").count()).toBe(0);
    expect(await page.getByText("No payments yet").count()).toBe(1);
    await snapshot(page, "dashboard-home-live");
    expect(errors).toEqual([]);
  });

  it("signs in with the keyboard alone, and every dashboard link is reachable by Tab", async () => {
    const { page } = await visitor();
    await page.goto(site("/dashboard/sign-in"));
    // Tab from the top of the page: the first field is Email, then Password, then Sign in.
    await page.keyboard.press("Tab");
    expect(await page.evaluate(() => document.activeElement?.getAttribute("name"))).toBe("email");
    await page.keyboard.type(owner.email);
    await page.keyboard.press("Tab");
    await page.keyboard.type(owner.password);
    await page.keyboard.press("Enter");
    await page.getByRole("heading", { name: "Home" }).waitFor({ timeout: 20_000 });
    const navigation = page.getByRole("navigation", { name: "Dashboard" });
    expect(await navigation.locator('[aria-current="page"]').allInnerTexts()).toEqual(["Home"]);
    const nav = await navigation.getByRole("link").allInnerTexts();
    const reached = new Set<string>();
    for (let i = 0; i < 40 && reached.size < nav.length; i++) {
      await page.keyboard.press("Tab");
      const focused = await page.evaluate(() =>
        document.activeElement?.closest("nav[aria-label=Dashboard]") ? document.activeElement.textContent : null,
      );
      if (focused) reached.add(focused.trim());
    }
    expect([...reached].sort()).toEqual([...nav].map((n) => n.trim()).sort());
  });

  it("a wrong password shows an error next to the field and no session", async () => {
    const { page, context } = await visitor();
    await submitSignIn(page, owner.email, "not the password");
    expect(await passwordError(page)).toBe("Wrong email or password.");
    expect(await page.getByLabel("Password").getAttribute("aria-describedby")).toBe("password-error");
    expect(page.url()).toBe(site("/dashboard/sign-in"));
    expect(await page.locator("form:has(#password)").getAttribute("method")).toBe("post");
    expect((await context.cookies()).some((c) => c.name.includes("session-token"))).toBe(false);
    await snapshot(page, "dashboard-sign-in-wrong-password");
  });

  it("after 5 wrong passwords this client waits, even with the right password (others do not)", async () => {
    const user = await newUser(m.id, "viewer");
    const { page } = await visitor();
    const button = page.getByRole("button", { name: "Sign in" });
    for (let i = 1; i <= 5; i++) {
      await submitSignIn(page, user.email, `wrong password ${i}`);
      // The button is disabled while the attempt runs; enabled again with its answer shown.
      await waitUntil(`attempt ${i} answered`, async () => (await button.isEnabled()) && (await passwordError(page)));
      expect(await passwordError(page)).toBe("Wrong email or password.");
    }
    const [failures] = await query<{ n: number }>(
      getDb(),
      "select count(*)::int as n from sign_in_attempts where email = $1 and not succeeded",
      [user.email],
    );
    expect(failures!.n).toBe(5);
    await submitSignIn(page, user.email, user.password);
    await page.getByText("Too many failed sign-ins").waitFor({ timeout: 15_000 });
    // 30 seconds after the 5th failure (doubling with each further one), for this client only.
    expect(await passwordError(page)).toMatch(/^Too many failed sign-ins\. Try again in (2\d|30) seconds\.$/);
    expect(new URL(page.url()).pathname).toBe("/dashboard/sign-in");
    await snapshot(page, "dashboard-sign-in-locked");
    const elsewhere = await visitor();
    await signIn(elsewhere.page, user);
  });

  it("the session cookie is HttpOnly, SameSite=Lax, path /, for 30 minutes (not Secure over plain http)", async () => {
    const { page, context } = await visitor();
    const before = Date.now() / 1000;
    await signIn(page, owner);
    const session = (await context.cookies()).find((c) => c.name === "next-auth.session-token");
    expect(session).toMatchObject({ httpOnly: true, sameSite: "Lax", path: "/", secure: false });
    expect(session!.expires - before).toBeGreaterThan(29 * 60);
    expect(session!.expires - before).toBeLessThan(31 * 60);
  });

  it("every dashboard page refuses without a session: redirect to sign-in", async () => {
    const { page } = await visitor();
    // Every page under (signed-in), read from the app's files, so a new page cannot be left out.
    const paths = signedInPages();
    expect(paths).toEqual(expect.arrayContaining(["/dashboard", "/dashboard/keys", "/dashboard/payments/x_id"]));
    for (const path of paths) {
      const res = await fetch(site(path), { redirect: "manual" });
      expect([res.status, res.headers.get("location")], path).toEqual([307, "/dashboard/sign-in"]);
    }
    await page.goto(site("/dashboard/security"));
    expect(new URL(page.url()).pathname).toBe("/dashboard/sign-in");
  });

  it("sign out of all sessions ends the other browser's session too; sign out ends this one", async () => {
    const a = await visitor();
    const b = await visitor();
    await signIn(a.page, owner);
    await signIn(b.page, owner);
    await b.page.reload();
    expect(new URL(b.page.url()).pathname).toBe("/dashboard");

    await a.page.getByRole("button", { name: "Sign out of all sessions" }).click();
    await a.page.waitForURL(/\/dashboard\/sign-in$/, { timeout: 15_000 });
    await b.page.goto(site("/dashboard"));
    expect(new URL(b.page.url()).pathname).toBe("/dashboard/sign-in");
    const audit = await query<{ action: string }>(
      getDb(),
      "select action from audit_log where user_id = $1 and action = 'user.signed_out_everywhere'",
      [owner.id],
    );
    expect(audit).toHaveLength(1);

    // Signing in again works; Sign out clears this browser only.
    await signIn(b.page, owner);
    await signIn(a.page, owner);
    await a.page.getByRole("button", { name: "Sign out", exact: true }).click();
    await a.page.waitForURL(/\/dashboard\/sign-in$/, { timeout: 15_000 });
    await b.page.reload();
    expect(new URL(b.page.url()).pathname).toBe("/dashboard");
  });
});
