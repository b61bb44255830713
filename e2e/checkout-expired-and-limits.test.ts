import fs from "node:fs";
import path from "node:path";
import type { Browser, ConsoleMessage } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/lib/platform/db/client";
import { query } from "@/lib/platform/db/query";
import type { SpawnedWorker } from "@/scripts/lib/spawn-worker";
import { newMerchant, type TestMerchant } from "@/tests/helpers/api";
import { startWatcherProcess } from "@/tests/helpers/chains";
import {
  freshClientIp,
  launchBrowser,
  newPayer,
  recorded,
  site,
  snapshot,
  waitForStatus,
  waitUntil,
} from "./helpers/browser";
import { checkoutPath, createPayment, getPayment } from "./helpers/checkout";

// Time running out while the page is open, the per-IP page limit, and the hosted pages' security headers.
const MERCHANT = "Northwind Bikes";

/** A server action called as a script would, by id, with its arguments in React's reply encoding. */
const postAction = (pathname: string, action: string, ip: string, args: unknown[]) =>
  fetch(site(pathname), {
    method: "POST",
    headers: {
      "Next-Action": action,
      Accept: "text/x-component",
      "Content-Type": "text/plain;charset=UTF-8",
      Origin: site(""),
      "X-Forwarded-For": ip,
    },
    body: JSON.stringify(args),
  });

/** A server action's id from the build's manifest (what Next runs for a POST carrying it, on any path). */
function actionId(filename: string, exportedName: string): string {
  const file = path.resolve(import.meta.dirname, "../.next/server/server-reference-manifest.json");
  const manifest = JSON.parse(fs.readFileSync(file, "utf8")) as {
    node: Record<string, { filename: string; exportedName: string }>;
  };
  const found = Object.entries(manifest.node).find(
    ([, a]) => a.filename === filename && a.exportedName === exportedName,
  );
  if (!found) throw new Error(`no action ${exportedName} in ${filename}`);
  return found[0];
}

let browser: Browser;
let worker: SpawnedWorker;
let m: TestMerchant;
beforeAll(async () => {
  [browser, worker, m] = await Promise.all([launchBrowser(), startWatcherProcess(["polygon"]), newMerchant(MERCHANT)]);
});
afterAll(async () => {
  await browser?.close();
  await worker?.stop();
});

describe("checkout limits", () => {
  it("an open checkout turns into the expired screen by itself when time runs out", async () => {
    const { context, page } = await newPayer(browser);
    try {
      const payment = await createPayment(m, { amount: "6.000000", chain: "polygon" });
      await page.goto(site(checkoutPath(payment.id)));
      await waitForStatus(page, ["awaiting_payment"]);
      await page.evaluate(() => ((window as unknown as { __sameDocument: boolean }).__sameDocument = true));
      await query(getDb(), "update payments set expires_at = now() + interval '1 second' where id = $1", [payment.id]);

      const expired = await waitForStatus(page, ["expired"], 20_000);
      expect(expired).toContain("This payment has expired");
      expect(expired).toContain("do not send funds to this address");
      // Nothing left to pay with: no address, QR, countdown or pay buttons.
      expect(await page.getByTestId("deposit-address").count()).toBe(0);
      expect(await page.locator("svg:has(> title)").count()).toBe(0);
      expect(await page.getByText("Time left to pay").count()).toBe(0);
      expect(await page.getByRole("button", { name: /^Pay with/ }).count()).toBe(0);
      // live, no reload
      expect(await page.evaluate(() => (window as unknown as { __sameDocument?: boolean }).__sameDocument)).toBe(true);
      // The statuses shown, in order: the region's text may change within one status (tests/FLAKES.md), so a
      // status seen twice in a row is one; every entry is printed should the order be wrong.
      const { statuses } = await recorded(page);
      const shown = statuses.map((s) => s.split("|")[0]).filter((s, i, all) => s !== all[i - 1]);
      expect(shown, JSON.stringify(statuses)).toEqual(["awaiting_payment", "expired"]);
      expect((await getPayment(m, payment.id)).status).toBe("expired");
      await snapshot(page, "checkout-expired");

      // A later visit renders the expired screen from the server.
      await page.reload();
      expect(await waitForStatus(page, ["expired"])).toContain("This payment has expired");
    } finally {
      await context.close();
    }
  });

  it("the 31st page load within a minute from one client IP is a readable 429 with Retry-After", async () => {
    const { context, page } = await newPayer(browser);
    try {
      // A page with no live feed (network not chosen yet), so each load is exactly one public request.
      const payment = await createPayment(m, { amount: "1.000000" });
      for (let i = 1; i <= 30; i++) {
        const response = await page.goto(site(checkoutPath(payment.id)));
        expect(response?.status(), `load ${i}`).toBe(200);
      }
      const limited = await page.goto(site(checkoutPath(payment.id)));
      expect(limited?.status()).toBe(429);
      const retryAfter = Number(limited?.headers()["retry-after"]);
      expect(Number.isInteger(retryAfter) && retryAfter >= 1 && retryAfter <= 60, `Retry-After ${retryAfter}`).toBe(
        true,
      );
      expect(await page.getByRole("heading", { name: "Too many requests" }).count()).toBe(1);
      expect(await page.locator("body").innerText()).toMatch(/Please wait \d+ seconds? and reload/);
      await snapshot(page, "checkout-rate-limited");

      // Another payer (another IP) is not affected.
      const other = await newPayer(browser);
      expect((await other.page.goto(site(checkoutPath(payment.id))))?.status()).toBe(200);
      await other.context.close();
    } finally {
      await context.close();
    }
  });

  it(
    "a public server action posted to any path is charged to the " + "client like on its own page: the 31st is 429",
    async () => {
      const action = actionId("app/checkout/[id]/actions.ts", "payWithSandboxWallet");
      const payment = await createPayment(m, { amount: "1.000000" });
      for (const path of ["/", "/dashboard/sign-in"]) {
        const ip = freshClientIp();
        for (let i = 1; i <= 30; i++)
          expect((await postAction(path, action, ip, [payment.id])).status, `${path}: post ${i}`).not.toBe(429);
        const limited = await postAction(path, action, ip, [payment.id]);
        expect(limited.status, path).toBe(429);
        expect(Number(limited.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
      }
    },
  );

  it("the sandbox wallet button pays one payment at most 3 times a minute, whoever presses it", async () => {
    const action = actionId("app/checkout/[id]/actions.ts", "payWithSandboxWallet");
    // No network chosen yet: each press is refused by the payment itself, and still counted.
    const payment = await createPayment(m, { amount: "1.000000" });
    const press = async () =>
      (await postAction(checkoutPath(payment.id), action, freshClientIp(), [payment.id])).text();
    for (let i = 0; i < 3; i++) expect(await press()).not.toContain("times this minute");
    expect(await press()).toContain("The sandbox wallet paid this payment 3 times this minute.");
  });

  it(
    "sends CSP with a nonce, frame-ancestors 'none', no-referrer and nosniff; " +
      "a checkout loads with no CSP violation",
    async () => {
      const { context, page } = await newPayer(browser);
      const console: string[] = [];
      const errors: string[] = [];
      page.on("console", (msg: ConsoleMessage) => console.push(`${msg.type()}: ${msg.text()}`));
      page.on("pageerror", (err) => errors.push(err.message));
      try {
        const payment = await createPayment(m, { amount: "2.500000", chain: "polygon" });
        const response = await page.goto(site(checkoutPath(payment.id)));
        expect(response?.status()).toBe(200);
        const headers = response!.headers();
        const csp = headers["content-security-policy"] ?? "";
        const nonce = /'nonce-([A-Za-z0-9+/=]+)'/.exec(csp)?.[1];
        expect(nonce, csp).toBeTruthy();
        expect(csp).toMatch(/script-src [^;]*'nonce-/);
        expect(csp).not.toMatch(/script-src [^;]*'unsafe-inline'/);
        expect(csp).toContain("frame-ancestors 'none'");
        expect(headers["referrer-policy"]).toBe("no-referrer");
        expect(headers["x-content-type-options"]).toBe("nosniff");
        // Every script of the page carries this response's nonce (or CSP would block it).
        const html = await response!.text();
        const scripts = html.match(/<script\b[^>]*>/g) ?? [];
        expect(scripts.length).toBeGreaterThan(0);
        for (const tag of scripts) expect(tag, tag).toContain(`nonce="${nonce}"`);
        // A second load gets a different nonce.
        const again = await page.goto(site(checkoutPath(payment.id)));
        expect(again!.headers()["content-security-policy"]).not.toContain(`'nonce-${nonce}'`);

        // The page works under that policy: hydrated (the countdown ticks, the live feed is open), the wallet
        // code loads on demand.
        await waitUntil("the countdown", async () =>
          /\d:\d\d/.test(await page.getByText("Time left to pay").innerText()),
        );
        await page.getByRole("button", { name: "Pay with a browser wallet" }).click();
        await waitUntil(
          "the wallet module",
          async () => (await page.getByText("Loading wallet support…").count()) === 0,
        );
        await page.waitForTimeout(500);
        expect(await waitForStatus(page, ["awaiting_payment"])).toContain("Send 2.5 USDT on Polygon");
        expect((await recorded(page)).csp).toEqual([]);
        expect(console.filter((line) => /Content.Security.Policy|Refused to/i.test(line))).toEqual([]);
        expect(errors).toEqual([]);
        await snapshot(page, "checkout-wallet-opened");
      } finally {
        await context.close();
      }
    },
  );
});
