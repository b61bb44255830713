import path from "node:path";
import { gzipSync } from "node:zlib";
import type { APIRequestContext, Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SpawnedWorker } from "@/scripts/lib/spawn-worker";
import { api, newMerchant, type TestMerchant } from "@/tests/helpers/api";
import { startWatcherProcess } from "@/tests/helpers/chains";
import { launchBrowser, site, snapshot, waitUntil } from "./helpers/browser";
import { createPayment, getPayment } from "./helpers/checkout";
import { newUser, newVisitor, signIn } from "./helpers/dashboard";

// The home page's 30-day confirmed volume (a lazily loaded chart, and a table for screen readers) and each
// chain watcher's health, after a sandbox payment is paid and confirmed by a real watcher.
let browser: Browser;
let worker: SpawnedWorker;
let m: TestMerchant;
beforeAll(async () => {
  [browser, worker, m] = await Promise.all([
    launchBrowser(),
    startWatcherProcess(["polygon"]),
    newMerchant("Sorrel Bikes"),
  ]);
});
afterAll(async () => {
  await browser?.close();
  await worker?.stop();
});

/**
 * First-load JavaScript of a page as bench/pages.ts counts it:
 * the HTML's scripts and script preloads, gzipped one by one.
 */
async function firstLoadGzipKb(request: APIRequestContext, url: string): Promise<{ kb: number; html: string }> {
  const html = await (await request.get(url)).text();
  const srcs = new Set(
    [
      ...html.matchAll(/<script[^>]*src="([^"]+)"/g),
      ...html.matchAll(/<link[^>]+rel="preload"[^>]+as="script"[^>]+href="([^"]+)"/g),
      ...html.matchAll(/<link[^>]+href="([^"]+\.js)"[^>]+as="script"/g),
    ].map((m) => m[1]!),
  );
  let bytes = 0;
  for (const src of srcs)
    bytes += gzipSync(await (await request.get(new URL(src, url).toString())).body(), { level: 9 }).length;
  return { kb: bytes / 1024, html };
}

describe("dashboard home", () => {
  it("shows the confirmed volume of the day as a chart and a table, and polygon's watcher as OK", async () => {
    const owner = await newUser(m.id, "viewer");
    const v = await newVisitor(browser);
    try {
      await signIn(v.page, owner);
      await v.page.getByText("No confirmed payment yet in these 30 days.").waitFor();
      expect(await v.page.locator("[data-volume-total]").getAttribute("data-volume-total")).toBe("0.000000");
      await snapshot(v.page, "dashboard-home-no-volume");

      const payment = await createPayment(m, { amount: "12.345678", chain: "polygon", description: "Bike bell" });
      const simulated = await api("POST", `/v1/sandbox/payments/${payment.id}/simulate`, {
        key: m.sandboxKey,
        body: {},
      });
      expect(simulated.status, simulated.text).toBe(200);
      await waitUntil(
        "the payment confirmed",
        async () => (await getPayment(m, payment.id)).status === "confirmed",
        60_000,
      );

      await v.page.reload();
      const total = v.page.locator("[data-volume-total]");
      expect(await total.getAttribute("data-volume-total")).toBe("12.345678");
      expect(await total.innerText()).toContain(
        "12.345678 USDT confirmed in 1 payment over the last 30 days (sandbox)",
      );
      // The chart is drawn once recharts has loaded; the same numbers are in the (visually hidden) table.
      await v.page.locator("[data-volume-chart] svg.recharts-surface").waitFor({ timeout: 15_000 });
      expect(await v.page.locator("[data-volume-chart] .recharts-bar-rectangle").count()).toBeGreaterThan(0);
      const today = new Date().toISOString().slice(0, 10);
      const table = v.page.getByRole("table", { name: "Confirmed volume per day, last 30 days" });
      expect(await table.locator(`tr[data-volume-day="${today}"]`).innerText()).toMatch(/12\.345678\s+1/);

      const polygon = v.page.locator('tr[data-chain-health="polygon"]');
      await waitUntil("polygon OK", async () => {
        if ((await polygon.getAttribute("data-state")) === "ok") return true;
        await v.page.reload();
        return false;
      });
      const cells = await polygon.locator("td").allInnerTexts();
      expect(cells[0]).toBe("OK");
      expect(Number(cells[1])).toBeLessThanOrEqual(50);
      expect(Number(cells[2])).toBeGreaterThan(0);
      expect(await v.page.locator("tr[data-chain-health]").count()).toBe(5);
      await snapshot(v.page, "dashboard-home");
      await v.page.setViewportSize({ width: 1280, height: 900 });
      await v.page.screenshot({
        path: path.resolve(import.meta.dirname, "../test-results/e2e/dashboard-home-1280.png"),
        fullPage: true,
      });
      expect(await v.page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(1280);
      expect(v.errors).toEqual([]);

      // recharts is not part of the first load: the home page stays within the 200 KB (gzip) budget.
      const first = await firstLoadGzipKb(v.context.request, site("/dashboard"));
      console.log(`dashboard home first-load JS: ${first.kb.toFixed(1)} KB gzip`);
      expect(first.kb).toBeGreaterThan(50);
      expect(first.kb).toBeLessThanOrEqual(200);
    } finally {
      await v.context.close();
    }
  });
});
