import { randomBytes } from "node:crypto";
import path from "node:path";
import { encode } from "next-auth/jwt";
import { afterAll, beforeAll, describe, expect, it, inject } from "vitest";
import { nextAuthSecret } from "@/lib/identity/auth/secret";
import { getDb } from "@/lib/platform/db/client";
import { createUser } from "@/lib/identity/users/create-user";
import { openSession } from "@/lib/identity/users/sessions";
import { spawnWebServer, type SpawnedWebServer } from "@/scripts/lib/spawn-web";
import { newMerchant } from "../helpers/api";
import { signInOverHttp } from "../helpers/dashboard-http";

// next-auth's Credentials flow over HTTP, as the sign-in form drives it (csrf → callback), on a web instance
// whose public URL is https (as behind a TLS proxy): the session cookie must be Secure, HttpOnly and Lax.
const root = path.resolve(import.meta.dirname, "../..");
let web: SpawnedWebServer;
let email: string;
let password: string;
let userId: string;
beforeAll(async () => {
  web = await spawnWebServer(root, {
    DATABASE_URL: inject("databaseUrl"),
    MASTER_KEY: inject("masterKey"),
    REDIS_KEY_PREFIX: inject("redisKeyPrefix"),
    DATA_DIR: path.join(root, ".data", "test"),
    LOG_LEVEL: "error",
    TRUST_PROXY: "true",
    PUBLIC_BASE_URL: "https://pay.example.test",
  });
  const m = await newMerchant();
  email = `secure.${randomBytes(4).toString("hex")}@shop.test`;
  const created = await createUser(getDb(), { merchantId: m.id, email, role: "owner" });
  password = created.password;
  userId = created.user.id;
}, 90_000);
afterAll(() => web?.stop());

const ip = `10.77.${randomBytes(1)[0]}.${1 + (randomBytes(1)[0]! % 250)}`;
const cookiesOf = (res: Response) => res.headers.getSetCookie();
const signIn = (pass: string) => signInOverHttp(web.url, { email, password: pass }, { "x-forwarded-for": ip });

describe("sign-in behind https", () => {
  it("a wrong password sets no session; the right one sets a Secure, HttpOnly, Lax cookie for 30 minutes", async () => {
    const wrong = await signIn("definitely not it");
    expect(wrong.status).toBe(401);
    expect(new URL(((await wrong.json()) as { url: string }).url).searchParams.get("error")).toBe("CredentialsSignin");
    expect(cookiesOf(wrong).some((c) => c.includes("session-token"))).toBe(false);

    const before = Date.now();
    const ok = await signIn(password);
    expect(ok.status).toBe(200);
    const session = cookiesOf(ok).find((c) => c.startsWith("__Secure-next-auth.session-token="));
    expect(session, cookiesOf(ok).join("\n")).toBeDefined();
    const attrs = session!.split(";").map((a) => a.trim().toLowerCase());
    expect(attrs).toEqual(expect.arrayContaining(["path=/", "httponly", "secure", "samesite=lax"]));
    const expires = Date.parse(attrs.find((a) => a.startsWith("expires="))!.slice("expires=".length));
    expect(expires - before).toBeGreaterThan(29 * 60_000);
    expect(expires - before).toBeLessThan(31 * 60_000);
    // The CSP with a nonce is on the dashboard's responses too.
    const page = await fetch(`${web.url}/dashboard/sign-in`, { headers: { "x-forwarded-for": ip } });
    expect(page.headers.get("content-security-policy")).toMatch(/script-src 'self' 'nonce-[A-Za-z0-9+/=]{24}'/);
  });

  it("idle expiry: a session older than 30 minutes is refused; using it renews it for 30 more minutes", async () => {
    // Sessions as next-auth issues them (the same secret, derived from MASTER_KEY), with chosen lifetimes,
    // over one open session row.
    const sid = await openSession(getDb(), { userId, ip, userAgent: null, secondFactor: false });
    const session = async (maxAge: number, sv = 1) =>
      `__Secure-next-auth.session-token=` +
      `${await encode({ token: { uid: userId, sv, sid, email }, secret: nextAuthSecret(), maxAge })}`;
    const home = (cookie: string) =>
      fetch(`${web.url}/dashboard`, { redirect: "manual", headers: { cookie, "x-forwarded-for": ip } });
    const fresh = await home(await session(60));
    expect(fresh.status).toBe(200);
    expect(await fresh.text()).toContain(email);
    const idle = await home(await session(-60));
    expect([idle.status, idle.headers.get("location")]).toEqual([307, "/dashboard/sign-in"]);
    // A session of an older version (signed out everywhere since) is refused too.
    const stale = await home(await session(60, 0));
    expect([stale.status, stale.headers.get("location")]).toEqual([307, "/dashboard/sign-in"]);

    // The keep-alive (next-auth's session endpoint, called by every dashboard page) re-issues the cookie.
    const before = Date.now();
    const renewed = await fetch(`${web.url}/api/auth/session`, {
      headers: { cookie: await session(60), "x-forwarded-for": ip },
    });
    const cookie = cookiesOf(renewed).find((c) => c.startsWith("__Secure-next-auth.session-token="))!;
    const expires = Date.parse(/Expires=([^;]+)/i.exec(cookie)![1]!);
    expect(expires - before).toBeGreaterThan(29 * 60_000);
    expect((await home(cookie.split(";")[0]!)).status).toBe(200);
  });
});
