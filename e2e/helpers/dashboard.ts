import { randomBytes } from "node:crypto";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { getDb } from "@/lib/db/client";
import { createUser } from "@/lib/users/create-user";
import type { Role } from "@/lib/users/roles";
import { freshClientIp, site, VIEWPORT, waitUntil } from "./browser";

export interface DashboardUser {
  email: string;
  password: string;
  id: string;
}

/** A dashboard user of `merchantId` with a generated password (as `users create` makes one). */
export async function newUser(merchantId: string, role: Role): Promise<DashboardUser> {
  const email = `${role}.${randomBytes(4).toString("hex")}@shop.test`;
  const { user, password } = await createUser(getDb(), { merchantId, email, role });
  return { email, password, id: user.id };
}

/** A browser of its own (cookies, client IP) at phone size, recording CSP violations and page errors. */
export async function newVisitor(browser: Browser): Promise<{ context: BrowserContext; page: Page; errors: string[] }> {
  const context = await browser.newContext({
    viewport: VIEWPORT,
    deviceScaleFactor: 2,
    extraHTTPHeaders: { "X-Forwarded-For": freshClientIp() },
    locale: "en-US",
  });
  const errors: string[] = [];
  await context.addInitScript(() => {
    document.addEventListener("securitypolicyviolation", (e) =>
      console.error(`CSP violation: ${e.violatedDirective} ${e.blockedURI}`),
    );
  });
  const page = await context.newPage();
  page.on("pageerror", (e) => errors.push(`pageerror: ${e.message}`));
  page.on("console", (m) => {
    if (m.text().startsWith("CSP violation")) errors.push(m.text());
  });
  return { context, page, errors };
}

/** Fills the sign-in form as a person would and presses Sign in. */
export async function submitSignIn(page: Page, email: string, password: string): Promise<void> {
  if (!page.url().endsWith("/dashboard/sign-in")) await page.goto(site("/dashboard/sign-in"));
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign in" }).click();
}

/** Signs in and waits for the home page. */
export async function signIn(page: Page, user: DashboardUser): Promise<void> {
  await submitSignIn(page, user.email, user.password);
  await page.waitForURL(/\/dashboard$/, { timeout: 20_000 });
  await page.getByRole("heading", { name: "Home" }).waitFor({ timeout: 20_000 });
}

/** The error shown under the password field once it appears. */
export const passwordError = (page: Page) =>
  waitUntil("the password error", async () => {
    const el = page.locator("#password-error");
    return (await el.count()) ? (await el.innerText()).trim() : null;
  });
