import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/lib/platform/db/client";
import { query } from "@/lib/platform/db/query";
import { api, newMerchant, type TestMerchant } from "@/tests/helpers/api";
import { launchBrowser, site, snapshot } from "./helpers/browser";
import { newUser, newUserWithApp, newVisitor, signIn, signInWithCode } from "./helpers/dashboard";

// What a teammate's own browser can do with the dashboard's forms, tried as an attacker would: a developer
// cannot mint a key that moves money (the missing checkbox put back into the page, in sandbox and in live
// after stepping up), and whoever holds an owner's session without its second factor cannot change the team.
let browser: Browser;
let m: TestMerchant;
const contexts: BrowserContext[] = [];
const visitor = async () => {
  const v = await newVisitor(browser);
  contexts.push(v.context);
  return v;
};
const keyCount = async (mode: string) =>
  (
    await query<{ n: number }>(
      getDb(),
      "select count(*)::int as n from api_keys where merchant_id = $1 and mode = $2",
      [m.id, mode],
    )
  )[0]!.n;
const PAYOUT = { chain: "polygon", to_address: "0x70997970C51812dc3A010C7d01b50e0d17dc79C8", amount: "1.000000" };

beforeAll(async () => {
  [browser, m] = await Promise.all([launchBrowser(), newMerchant("Larch Supplies", { sandboxChains: false })]);
});
afterAll(async () => {
  for (const c of contexts) await c.close();
  await browser?.close();
});

/** On the keys page: adds a checked `payouts:write` box to the create form (the page offers none) and submits. */
async function createWithInjectedScope(page: Page) {
  await page.evaluate(() => {
    const fieldset = document.querySelector("form fieldset")!;
    const box = Object.assign(document.createElement("input"), {
      type: "checkbox",
      name: "scope",
      value: "payouts:write",
    });
    box.checked = true;
    fieldset.append(box);
  });
  await page.getByRole("button", { name: "Create key" }).click();
}

async function switchTo(page: Page, mode: "Live" | "Sandbox") {
  await page.getByRole("button", { name: mode }).click();
  await page.getByRole("button", { name: mode, pressed: true }).waitFor({ timeout: 15_000 });
}

describe("dashboard privileges", () => {
  it("a developer cannot create a key with payouts:write (sandbox, or live after step-up); an owner can", async () => {
    const developer = await newUserWithApp(m.id, "developer");
    const d = await visitor();
    await signInWithCode(d.page, developer);
    await d.page.goto(site("/dashboard/keys"));
    await d.page.getByRole("heading", { name: "API keys" }).waitFor();
    expect(await d.page.locator('input[name="scope"][value="payouts:write"]').count()).toBe(0);
    await d.page.getByText("Not offered, as your role cannot use them: payments:write").waitFor();
    await snapshot(d.page, "dashboard-keys-developer");

    const refusal = "Your role (developer) cannot give a key these scopes: payouts:write.";
    const before = { sandbox: await keyCount("sandbox"), live: await keyCount("live") };
    await createWithInjectedScope(d.page);
    await d.page.getByText(refusal).waitFor({ timeout: 15_000 });
    // Live, with a fresh second factor (step-up passed): still refused.
    await switchTo(d.page, "Live");
    await d.page.goto(site("/dashboard/keys"));
    await d.page.getByText("Live keys move real money").waitFor();
    await createWithInjectedScope(d.page);
    await d.page.getByText(refusal).waitFor({ timeout: 15_000 });
    expect({ sandbox: await keyCount("sandbox"), live: await keyCount("live") }).toEqual(before);
    expect(await d.page.getByLabel("New secret key (shown only this once)").count()).toBe(0);

    // The developer's own key, as offered: cannot make payouts.
    await switchTo(d.page, "Sandbox");
    await d.page.goto(site("/dashboard/keys"));
    await d.page.getByRole("button", { name: "Create key" }).click();
    const devSecret = await d.page.getByLabel("New secret key (shown only this once)").inputValue();
    expect((await api("POST", "/v1/payouts", { key: devSecret, body: PAYOUT })).status).toBe(403);

    // Nor roll the merchant's full key to get its secret.
    const fullKey = d.page.locator(`li[data-key="${m.sandboxKeyId}"]`);
    await fullKey.getByRole("button", { name: /^Roll key / }).click();
    await fullKey.getByText("Your role (developer) cannot roll a key with these scopes:").waitFor({ timeout: 15_000 });
    expect((await api("GET", "/v1/balances", { key: m.sandboxKey })).status).toBe(200);

    // An owner's form offers payouts:write, and the key it makes can ask for payouts.
    const owner = await newUser(m.id, "owner");
    const o = await visitor();
    await signIn(o.page, owner);
    await o.page.goto(site("/dashboard/keys"));
    expect(await o.page.locator('input[name="scope"][value="payouts:write"]').isChecked()).toBe(true);
    await o.page.getByRole("button", { name: "Create key" }).click();
    const secret = await o.page.getByLabel("New secret key (shown only this once)").inputValue();
    const made = await api("POST", "/v1/payouts", { key: secret, body: PAYOUT });
    expect(made.json.error.type).toBe("insufficient_balance"); // allowed: refused only for want of funds
  });

  it("team changes need a second factor proved in the last 5 minutes; an owner or admin invitation too", async () => {
    const borrowed = await newUser(m.id, "owner"); // an owner's session, as a borrower would hold it
    const b = await visitor();
    await signIn(b.page, borrowed);
    await b.page.goto(site("/dashboard/team"));
    await b.page.getByLabel("Email", { exact: true }).fill("intruder@evil.test");
    await b.page.getByLabel("Role", { exact: true }).selectOption("owner");
    await b.page.getByRole("button", { name: "Invite", exact: true }).click();
    await b.page.getByText("Confirm it's you with your second factor first.").waitFor({ timeout: 15_000 });
    expect(await b.page.getByRole("link", { name: "Confirm with your second factor" }).count()).toBe(1);
    const colleague = await newUser(m.id, "admin");
    await b.page.reload();
    const role = b.page.getByRole("form", { name: `Role of ${colleague.email}` });
    await role.getByRole("combobox").selectOption("viewer");
    await role.getByRole("button", { name: `Change role of ${colleague.email}` }).click();
    await role.getByText("Confirm it's you with your second factor first.").waitFor({ timeout: 15_000 });
    await snapshot(b.page, "dashboard-team-step-up");
    const invitations = await query(getDb(), "select 1 from invitations where merchant_id = $1", [m.id]);
    expect(invitations).toEqual([]);
    const [still] = await query<{ role: string }>(getDb(), "select role from users where id = $1", [colleague.id]);
    expect(still?.role).toBe("admin");

    // The real owner, with an authenticator app and a fresh code, invites an admin.
    const owner = await newUserWithApp(m.id, "owner");
    const o = await visitor();
    await signInWithCode(o.page, owner);
    await o.page.goto(site("/dashboard/team"));
    await o.page.getByLabel("Email", { exact: true }).fill(`admin.${Date.now()}@shop.test`);
    await o.page.getByLabel("Role", { exact: true }).selectOption("admin");
    await o.page.getByRole("button", { name: "Invite", exact: true }).click();
    await o.page.getByLabel(/^Invitation link for /).waitFor({ timeout: 15_000 });
  });
});
