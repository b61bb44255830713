import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import jsQRModule from "jsqr";
import { chromium, type Browser, type BrowserContext, type Locator, type Page } from "playwright-core";
import { PNG } from "pngjs";
import { expect } from "vitest";
import { webUrls } from "@/tests/helpers/api";

/** The phone-sized viewport every state is checked at (and screenshotted in). */
export const VIEWPORT = { width: 360, height: 740 };
export const SCREENSHOT_DIR = path.resolve(import.meta.dirname, "../../test-results/e2e");

/** Debian's Chromium (playwright's own browsers cannot be downloaded here), quiet and offline. */
export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH || "/usr/bin/chromium",
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-background-networking",
      "--disable-component-update",
      "--no-first-run",
      "--disable-sync",
      "--disable-quic",
    ],
  });
}

/**
 * A fake client IP nobody else in the run uses: the web instances trust X-Forwarded-For (TRUST_PROXY),
 * so each test gets its own 30/min budget of public page requests.
 */
export function freshClientIp(): string {
  const [a, b, c] = randomBytes(3);
  return `10.${a}.${b}.${Math.max(1, c! % 255)}`;
}

/** The URL of a path on the first web instance (the browser's "site"). */
export const site = (pathname: string) => `${webUrls()[0]}${pathname}`;

export interface Payer {
  context: BrowserContext;
  page: Page;
  ip: string;
}

/**
 * A payer: a fresh browser context (360 × 740, its own client IP) and a page in it. Every page of the
 * context records what the test asserts later (see `recorded`).
 */
export async function newPayer(browser: Browser, ip = freshClientIp()): Promise<Payer> {
  const context = await browser.newContext({
    viewport: VIEWPORT,
    deviceScaleFactor: 2,
    extraHTTPHeaders: { "X-Forwarded-For": ip },
    locale: "en-US",
  });
  await context.addInitScript(recorder);
  const page = await context.newPage();
  return { context, page, ip };
}

export interface Recorded {
  /** Every distinct `<data-status>|<text>` the status region showed, in order. */
  statuses: string[];
  /** Lines of page text that matched /(Transaction sent|Sent): / at some moment (they vanish once paid). */
  sent: string[];
  /** securitypolicyviolation events: "<directive> <blocked URI>". */
  csp: string[];
}

/** Runs in every page before its scripts: watches the DOM so short-lived states are not missed. */
function recorder() {
  const w = window as unknown as { __e2e: Recorded };
  const rec: Recorded = { statuses: [], sent: [], csp: [] };
  w.__e2e = rec;
  document.addEventListener("securitypolicyviolation", (e) => rec.csp.push(`${e.violatedDirective} ${e.blockedURI}`));
  const read = () => {
    const el = document.querySelector('[role="status"][data-status]');
    if (el) {
      const entry = `${el.getAttribute("data-status")}|${(el.textContent ?? "").replace(/\s+/g, " ").trim()}`;
      if (rec.statuses[rec.statuses.length - 1] !== entry) rec.statuses.push(entry);
    }
    for (const line of (document.body?.innerText ?? "").split("\n")) {
      if (/^(Transaction sent|Sent): \S+/.test(line.trim()) && !rec.sent.includes(line.trim()))
        rec.sent.push(line.trim());
    }
  };
  new MutationObserver(read).observe(document, {
    subtree: true,
    childList: true,
    characterData: true,
    attributes: true,
    attributeFilter: ["data-status"],
  });
}

export const recorded = (page: Page): Promise<Recorded> =>
  page.evaluate(() => (window as unknown as { __e2e: Recorded }).__e2e);

/** Polls until `fn` returns something truthy (playwright-core has no auto-waiting `expect`). */
export async function waitUntil<T>(
  what: string,
  fn: () => Promise<T | undefined | null | false> | T | undefined | null | false,
  timeoutMs = 20_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const value = await fn();
      if (value) return value;
      last = value;
    } catch (err) {
      last = err;
    }
    if (Date.now() > deadline)
      throw new Error(
        `timed out waiting for ${what} (last: ${last instanceof Error ? last.message : JSON.stringify(last)})`,
      );
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** The live status region of a checkout. */
export const statusRegion = (page: Page) => page.locator('[role="status"][data-status]');

/** Waits until the status region shows one of `statuses` and returns its text. */
export async function waitForStatus(page: Page, statuses: string[], timeoutMs = 20_000): Promise<string> {
  return waitUntil(
    `status ${statuses.join("/")}`,
    async () => {
      const el = statusRegion(page);
      if (!statuses.includes((await el.getAttribute("data-status", { timeout: 1_000 })) ?? "")) return null;
      return (await el.innerText()).replace(/\s+/g, " ");
    },
    timeoutMs,
  );
}

/**
 * Saves a full-page screenshot as test-results/e2e/<name>.png and asserts the page does not scroll
 * sideways at 360 px (nothing wider than a phone's screen).
 */
export async function snapshot(page: Page, name: string): Promise<void> {
  fs.mkdirSync(SCREENSHOT_DIR, { recursive: true });
  await page.screenshot({ path: path.join(SCREENSHOT_DIR, `${name}.png`), fullPage: true });
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  expect(width, `${name}: page is ${width}px wide at a 360px viewport`).toBeLessThanOrEqual(VIEWPORT.width);
}

/** The desktop width every dashboard page is also shot at. */
export const WIDE_VIEWPORT = { width: 1280, height: 800 };

/** `snapshot` at 1280 px as `<name>-1280.png` (no sideways scroll there either), then back to the phone. */
export async function snapshotWide(page: Page, name: string): Promise<void> {
  await page.setViewportSize(WIDE_VIEWPORT);
  try {
    fs.mkdirSync(SCREENSHOT_DIR, { recursive: true });
    await page.screenshot({ path: path.join(SCREENSHOT_DIR, `${name}-1280.png`), fullPage: true });
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(width, `${name}: page is ${width}px wide at a 1280px viewport`).toBeLessThanOrEqual(WIDE_VIEWPORT.width);
  } finally {
    await page.setViewportSize(VIEWPORT);
  }
}

const jsQR = (
  typeof jsQRModule === "function" ? jsQRModule : (jsQRModule as unknown as { default: typeof jsQRModule }).default
) as typeof jsQRModule;

/** Decodes the QR code shown in `locator` from a screenshot of it, as a phone's camera would. */
export async function decodeQr(locator: Locator): Promise<string> {
  const png = PNG.sync.read(await locator.screenshot());
  const code = jsQR(
    new Uint8ClampedArray(png.data.buffer, png.data.byteOffset, png.data.length),
    png.width,
    png.height,
  );
  if (!code) throw new Error("no QR code could be read from the screenshot");
  return code.data;
}

/** The checkout's QR code: the white box around the SVG (the box gives it its quiet zone). */
export const qrBox = (page: Page) => page.locator("svg:has(> title)").locator("xpath=..");

/** "12.5" with `decimals` → base units, by string arithmetic (independent of the app's money code). */
export function baseUnits(amount: string, decimals: number): bigint {
  const [whole, fraction = ""] = amount.split(".");
  return BigInt(whole! + fraction.padEnd(decimals, "0").slice(0, decimals));
}
