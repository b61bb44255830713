import fs from "node:fs";
import { parse } from "csv-parse/sync";
import type { Browser, BrowserContext } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { adjustBalance } from "@/lib/books/ledger/adjust-balance";
import { getDb } from "@/lib/platform/db/client";
import { query } from "@/lib/platform/db/query";
import { api, newMerchant, type TestMerchant } from "@/tests/helpers/api";
import { creditedPayment } from "@/tests/helpers/credited-payment";
import { launchBrowser, site, snapshot, snapshotWide } from "./helpers/browser";
import { newUser, newVisitor, signIn } from "./helpers/dashboard";

// Finding an order and closing the books from the dashboard (docs/DASHBOARD.md#find-and-account): the header's
// search finds a payment by a transfer's hash, Export downloads what the list shows (audited as the user), and the
// balance history and statement agree with the balances.
let browser: Browser;
let m: TestMerchant;
const contexts: BrowserContext[] = [];
let paid: string;
let hash: string;

beforeAll(async () => {
  [browser, m] = await Promise.all([launchBrowser(), newMerchant("Harbor Tea")]);
  paid = await creditedPayment(m, ["6.000000"]);
  [{ tx_hash: hash }] = (await query<{ tx_hash: string }>(
    getDb(),
    "select tx_hash from deposits where payment_id = $1",
    [paid],
  )) as [{ tx_hash: string }];
  for (const chain of ["tron", "eth"] as const) {
    const made = await api("POST", "/v1/payments", { key: m.sandboxKey, body: { amount: "2.000000", chain } });
    expect(made.status, made.text).toBe(200);
  }
  await adjustBalance(getDb(), {
    merchantId: m.id,
    mode: "sandbox",
    chain: "eth",
    amount: 1_500_000n,
    reason: "bonus",
  });
});
afterAll(async () => {
  for (const c of contexts) await c.close();
  await browser?.close();
});

describe("find and account in the dashboard", () => {
  it("a viewer finds a payment by its transfer's hash from the header's search box", async () => {
    const viewer = await newUser(m.id, "viewer");
    const v = await newVisitor(browser);
    contexts.push(v.context);
    await signIn(v.page, viewer);
    const box = v.page.getByRole("searchbox", { name: "Search payments, payouts and refunds" });
    await box.fill(hash.toUpperCase().replace("0X", "0x"));
    await box.press("Enter");
    await v.page.getByRole("heading", { name: "Search" }).waitFor();
    const results = v.page.locator("[data-result]");
    expect(await results.evaluateAll((rows) => rows.map((r) => r.getAttribute("data-result")))).toEqual([paid]);
    await snapshot(v.page, "dashboard-search");
    await snapshotWide(v.page, "dashboard-search");
    await v.page.getByRole("link", { name: paid }).click();
    await v.page.waitForURL(new RegExp(`/dashboard/payments/${paid}$`));
    await v.page.goto(site("/dashboard/search?q=colour:blue"));
    expect(await v.page.getByRole("alert").filter({ hasText: "colour" }).textContent()).toMatch(
      /unknown field .colour./,
    );
    expect(v.errors).toEqual([]);
  });

  it("Export downloads the payments the filtered list shows, as CSV, audited as the viewer", async () => {
    const viewer = await newUser(m.id, "viewer");
    const v = await newVisitor(browser);
    contexts.push(v.context);
    await signIn(v.page, viewer);
    await v.page.goto(site("/dashboard/payments?chain=eth"));
    const shown = await v.page
      .locator("[data-payment]")
      .evaluateAll((rows) => rows.map((r) => r.getAttribute("data-payment")));
    expect(shown).toHaveLength(2);
    const [download] = await Promise.all([
      v.page.waitForEvent("download"),
      v.page.getByRole("link", { name: "Export CSV" }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^payments-sandbox-\d{4}-\d{2}-\d{2}\.csv$/);
    const [header, ...rows] = parse(fs.readFileSync((await download.path())!, "utf8")) as string[][];
    expect(header![0]).toBe("id");
    expect(rows.map((r) => r[0])).toEqual(shown);
    const audited = await query<{ user_id: string; details: Record<string, unknown> }>(
      getDb(),
      "select user_id, details from audit_log where merchant_id = $1 and action = 'export.payments'",
      [m.id],
    );
    expect(audited).toEqual([
      {
        user_id: viewer.id,
        details: expect.objectContaining({ filters: { chain: "eth" }, format: "csv", rows: 2, completed: true }),
      },
    ]);
  });

  it("the home page's balance history and the statement agree with the balance to the unit", async () => {
    const owner = await newUser(m.id, "owner");
    const o = await newVisitor(browser);
    contexts.push(o.context);
    await signIn(o.page, owner);
    await o.page.locator('[data-chain="eth"]').getByRole("link", { name: "Balance history" }).click();
    await o.page.getByRole("heading", { name: /Balance history/ }).waitFor();
    const txns = await o.page
      .locator("[data-txn]")
      .evaluateAll((rows) => rows.map((r) => [...r.querySelectorAll("td")].slice(0, 3).map((td) => td.textContent)));
    expect(txns).toEqual([
      ["adjustment", "1.500000 USDT", "7.500000"],
      ["payment", "6.000000 USDT", "6.000000"],
    ]);
    await snapshot(o.page, "dashboard-balance-history");
    await o.page.getByRole("link", { name: "Statement" }).click();
    await o.page.getByRole("heading", { name: "Statement" }).waitFor();
    const eth = o.page.locator('[data-statement="eth"]');
    expect(await eth.locator("[data-opening]").textContent()).toBe("0.000000 USDT");
    expect(await eth.locator("[data-closing]").textContent()).toBe("7.500000 USDT");
    const balances = await api("GET", "/v1/balances", { key: m.sandboxKey });
    expect(balances.json.data.find((b: { chain: string }) => b.chain === "eth").available).toBe("7.500000");
    await snapshot(o.page, "dashboard-statement");
    await snapshotWide(o.page, "dashboard-statement");
  });
});
