import { randomBytes } from "node:crypto";
import { generate } from "otplib";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { getDb } from "@/lib/platform/db/client";
import { createUser } from "@/lib/identity/users/create-user";
import { confirmAuthenticatorApp } from "@/lib/identity/users/factors/manage-authenticator-app";
import { beginTotpEnrollment } from "@/lib/identity/users/factors/totp";
import type { Role } from "@/lib/identity/users/roles";
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
export async function newVisitor(
  browser: Browser,
): Promise<{ context: BrowserContext; page: Page; errors: string[]; ip: string }> {
  const ip = freshClientIp();
  const context = await browser.newContext({
    viewport: VIEWPORT,
    deviceScaleFactor: 2,
    extraHTTPHeaders: { "X-Forwarded-For": ip },
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
  return { context, page, errors, ip };
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

/** A user with an authenticator app already on (as Security turns it on); `secret` makes its codes. */
export async function newUserWithApp(merchantId: string, role: Role): Promise<DashboardUser & { secret: string }> {
  const user = await newUser(merchantId, role);
  const started = await beginTotpEnrollment(getDb(), { id: user.id, email: user.email });
  if (!started) throw new Error("enrollment refused");
  const actor = { merchantId, userId: user.id, ip: null, userAgent: null };
  if (!(await confirmAuthenticatorApp(getDb(), actor, "ses_setup", await totpCode(started.secret, 0))))
    throw new Error("the app's code was refused");
  lastStep.set(user.id, currentStep());
  return { ...user, secret: started.secret };
}

/** The app's code `steps` 30 s periods ahead (later periods only: a past one could leave the window mid-test). */
export const totpCode = (secret: string, steps: number) =>
  generate({ secret, epoch: Math.floor(Date.now() / 1000) + 30 * steps });

const currentStep = () => Math.floor(Date.now() / 30_000);
const lastStep = new Map<string, number>();

/**
 * The next code this user's app may give: the next period's, once it is later than the last one the server
 * accepted (a code works once; the server accepts one period ahead), waiting for the clock if need be.
 */
export async function nextTotpCode(user: DashboardUser & { secret: string }): Promise<string> {
  while (currentStep() + 1 <= (lastStep.get(user.id) ?? 0)) await new Promise((r) => setTimeout(r, 250));
  lastStep.set(user.id, currentStep() + 1);
  return totpCode(user.secret, 1);
}

/**
 * Signs in with password and app code, and waits for the home page. The session has proved a second factor,
 * so step-up actions work for 5 minutes.
 */
export async function signInWithCode(page: Page, user: DashboardUser & { secret: string }): Promise<void> {
  await submitSignIn(page, user.email, user.password);
  await page.getByLabel("Authentication code").fill(await nextTotpCode(user));
  await page.getByRole("button", { name: "Verify" }).click();
  await page.waitForURL(/\/dashboard$/, { timeout: 20_000 });
  await page.getByRole("heading", { name: "Home" }).waitFor({ timeout: 20_000 });
}
