import fs from "node:fs";
import path from "node:path";
import type { Browser, ConsoleMessage, Request } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api, newMerchant, type TestMerchant } from "@/tests/helpers/api";
import { launchBrowser, SCREENSHOT_DIR, site, WIDE_VIEWPORT, waitUntil } from "./helpers/browser";

// The API reference at /docs: swagger-ui served by the service itself over the live OpenAPI document, under
// the hosted pages' CSP, with no request to any other host.
let browser: Browser;
let m: TestMerchant;
beforeAll(async () => {
  [browser, m] = await Promise.all([launchBrowser(), newMerchant("Docs Reader Ltd", { sandboxChains: false })]);
});
afterAll(async () => {
  await browser?.close();
});

type Doc = { paths: Record<string, Record<string, { operationId?: string; tags?: string[] }>> };

/** The document's operations under `tag`, read independently of the page. */
function operationsTagged(doc: Doc, tag: string) {
  return Object.entries(doc.paths).flatMap(([p, ops]) =>
    Object.entries(ops)
      .filter(([, op]) => op.tags?.includes(tag))
      .map(([method, op]) => ({ method, path: p, operationId: op.operationId ?? "" })),
  );
}

describe("API reference", () => {
  it("serves only swagger-ui's allow-listed CSS and JS, typed and cached for a year", async () => {
    for (const [file, type] of [
      ["swagger-ui-bundle.js", "text/javascript"],
      ["swagger-ui.css", "text/css"],
    ]) {
      const reply = await api("GET", `/docs/assets/${file}`);
      expect(reply.status, file).toBe(200);
      expect(reply.headers.get("content-type")).toContain(type);
      expect(reply.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    }
    // Files of the same package that the page does not load are not served.
    for (const file of ["package.json", "index.html", "swagger-initializer.js", "swagger-ui.js"])
      expect((await api("GET", `/docs/assets/${file}`)).status, file).toBe(404);
  });

  it(
    "shows the Payments operations of /v1/openapi.json, " +
      "tries one with a Bearer key, all from this service under CSP",
    async () => {
      const doc = await api("GET", "/v1/openapi.json");
      expect(doc.status, doc.text).toBe(200);
      const payments = operationsTagged(doc.json as Doc, "Payments");
      expect(payments.length).toBeGreaterThan(0);
      expect(payments.map((op) => op.operationId)).toContain("listPayments");

      const context = await browser.newContext({ viewport: WIDE_VIEWPORT, locale: "en-US" });
      await context.addInitScript(() => {
        const w = window as unknown as { __csp: string[] };
        w.__csp = [];
        document.addEventListener("securitypolicyviolation", (e) =>
          w.__csp.push(`${e.violatedDirective} ${e.blockedURI}`),
        );
      });
      const page = await context.newPage();
      const shot = async (name: string) => {
        fs.mkdirSync(SCREENSHOT_DIR, { recursive: true });
        await page.screenshot({ path: path.join(SCREENSHOT_DIR, `${name}.png`) });
      };
      const requests: Request[] = [];
      const console: string[] = [];
      const errors: string[] = [];
      page.on("request", (r) => requests.push(r));
      page.on("console", (msg: ConsoleMessage) => console.push(`${msg.type()}: ${msg.text()}`));
      page.on("pageerror", (err) => errors.push(err.message));
      try {
        const response = await page.goto(site("/docs"));
        expect(response?.status()).toBe(200);
        expect(await page.title()).toBe("API reference");
        const csp = response!.headers()["content-security-policy"] ?? "";
        expect(csp).toMatch(/script-src [^;]*'nonce-[^;]*'strict-dynamic'/);
        expect(csp).not.toMatch(/script-src [^;]*'unsafe-(inline|eval)'/);

        // The tag and each of its operations, as the document lists them.
        await page.locator("#operations-tag-Payments").waitFor({ timeout: 15_000 });
        for (const op of payments) {
          const block = page.locator(`#operations-Payments-${op.operationId}`);
          expect(await block.count(), op.operationId).toBe(1);
          expect(await block.locator(".opblock-summary-method").innerText()).toBe(op.method.toUpperCase());
          expect(await block.locator("[data-path]").getAttribute("data-path")).toBe(op.path);
        }

        await shot("api-reference");

        // Try it out: authorize with the merchant's key, then list payments from the page. The document's server
        // is PUBLIC_BASE_URL (http://localhost:<port> here), the page 127.0.0.1: the call still goes to the page's
        // own origin, the only one its connect-src allows.
        await page.locator(".scheme-container button.authorize").click();
        await page.locator(".modal-ux input").first().fill(m.sandboxKey);
        await page.locator(".modal-ux button.authorize").click();
        await page.locator(".modal-ux button.btn-done").click();
        const list = page.locator("#operations-Payments-listPayments");
        await list.locator(".opblock-summary-control").click();
        await list.locator(".try-out__btn").click();
        await list.locator("button.execute").click();
        const status = await waitUntil("the live response", async () => {
          const cell = list.locator(".live-responses-table tbody .response-col_status");
          return (await cell.count()) ? (await cell.first().innerText()).trim() : null;
        });
        expect(status).toBe("200");
        const sent = requests.find((r) => r.method() === "GET" && new URL(r.url()).pathname === "/v1/payments");
        expect(sent?.headers().authorization).toBe(`Bearer ${m.sandboxKey}`);
        expect(new URL(sent!.url()).origin).toBe(new URL(site("/")).origin);
        // The key lives in the page's memory only: nothing of it in the origin's storage, and a reload forgets it.
        const stored = await page.evaluate(
          () => JSON.stringify({ ...localStorage }) + JSON.stringify({ ...sessionStorage }),
        );
        expect(stored).not.toContain(m.sandboxKey);
        expect(stored).not.toContain("authorized");

        await shot("api-reference-try-it-out");

        // Everything the page loaded came from the service itself.
        const origin = new URL(site("/")).origin;
        const urls = requests.map((r) => r.url());
        expect(urls).toContain(`${origin}/v1/openapi.json`);
        expect(urls.some((u) => u.startsWith(`${origin}/docs/assets/swagger-ui-bundle.js`))).toBe(true);
        expect(urls.filter((u) => !u.startsWith("data:") && new URL(u).origin !== origin)).toEqual([]);
        expect(await page.evaluate(() => (window as unknown as { __csp: string[] }).__csp)).toEqual([]);
        expect(console.filter((line) => /Content.Security.Policy|Refused to/i.test(line))).toEqual([]);
        expect(errors).toEqual([]);
      } finally {
        await context.close();
      }
    },
  );
});
