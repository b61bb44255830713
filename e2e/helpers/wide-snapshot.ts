import fs from "node:fs";
import path from "node:path";
import type { Page } from "playwright-core";
import { expect } from "vitest";
import { SCREENSHOT_DIR, VIEWPORT } from "./browser";

const WIDE = { width: 1280, height: 800 };

/** A desktop-width (1280 px) full-page screenshot `<name>-1280.png`, asserting no sideways scroll; back to 360 px after. */
export async function wideSnapshot(page: Page, name: string): Promise<void> {
  fs.mkdirSync(SCREENSHOT_DIR, { recursive: true });
  await page.setViewportSize(WIDE);
  try {
    await page.screenshot({ path: path.join(SCREENSHOT_DIR, `${name}-1280.png`), fullPage: true });
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(width, `${name}: page is ${width}px wide at a 1280px viewport`).toBeLessThanOrEqual(WIDE.width);
  } finally {
    await page.setViewportSize(VIEWPORT);
  }
}
