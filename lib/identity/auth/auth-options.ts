import type { AuthOptions } from "next-auth";
import Credentials from "next-auth/providers/credentials";
import { config, exportNextAuthUrl } from "@/lib/platform/config/env";
import { getDb } from "@/lib/platform/db/client";
import { log } from "@/lib/platform/log";
import { signInWithPassword } from "@/lib/identity/users/sign-in";
import { signInWithPasskey } from "@/lib/identity/users/sign-in-with-passkey";
import { LIMITED_PREFIX } from "@/lib/identity/users/sign-in-messages";
import { nextAuthSecret } from "./secret";

/** Idle expiry: a session not used for this long is gone (each dashboard page load renews it). */
export const SESSION_IDLE_SECONDS = 30 * 60;

function header(headers: unknown, name: string): string | null {
  const value = (headers as Record<string, string | string[] | undefined> | undefined)?.[name];
  return (Array.isArray(value) ? value[0] : value) ?? null;
}

let cached: AuthOptions | undefined;

/**
 * next-auth v4: the Credentials provider over lib/identity/users (Argon2id, limits, audit), JWT sessions carrying
 * the user id, session version and session row id (checked against the database on every request by
 * lib/identity/auth/guard.ts).
 */
export function authOptions(): AuthOptions {
  if (cached) return cached;
  const { publicBaseUrl } = config();
  // next-auth builds its callback URLs from NEXTAUTH_URL; the app's public URL is the one configuration of it.
  exportNextAuthUrl(`${publicBaseUrl}/api/auth`);
  cached = {
    secret: nextAuthSecret(),
    session: { strategy: "jwt", maxAge: SESSION_IDLE_SECONDS, updateAge: 0 },
    jwt: { maxAge: SESSION_IDLE_SECONDS },
    // Secure (and __Secure-/__Host- prefixed) cookies whenever the public URL is https; always HttpOnly, Lax.
    useSecureCookies: publicBaseUrl.startsWith("https://"),
    pages: { signIn: "/dashboard/sign-in", error: "/dashboard/sign-in" },
    // next-auth's own messages as our JSON log lines; an expired or foreign session cookie is routine (debug).
    logger: {
      error(code, metadata) {
        const message = metadata instanceof Error ? metadata.message : (metadata as { message?: string })?.message;
        if (code === "JWT_SESSION_ERROR") log.debug("dashboard session refused", { code, message });
        else log.error("next-auth error", { code, message });
      },
      warn: (code) => log.warn("next-auth warning", { code }),
      debug: () => {},
    },
    providers: [
      Credentials({
        name: "Password",
        credentials: {
          email: { label: "Email", type: "email" },
          password: { label: "Password", type: "password" },
          code: { label: "Authentication code", type: "text" },
        },
        async authorize(credentials, req) {
          const result = await signInWithPassword(getDb(), {
            email: String(credentials?.email ?? ""),
            password: String(credentials?.password ?? ""),
            code: credentials?.code ? String(credentials.code) : undefined,
            ip: header(req.headers, "x-client-ip") ?? "unknown",
            userAgent: header(req.headers, "user-agent"),
          });
          if (result.ok)
            return {
              id: result.user.id,
              email: result.user.email,
              sv: result.user.sessionVersion,
              sid: result.sessionId,
            };
          if (result.reason === "limited") throw new Error(`${LIMITED_PREFIX}${result.waitMs}`);
          // Codes the sign-in form understands (lib/identity/users/sign-in-messages.ts);
          // a wrong password stays next-auth's own.
          if (result.reason !== "invalid") throw new Error(result.reason);
          return null;
        },
      }),
      // A passkey alone (two factors in one): the browser's answer to a challenge from the sign-in page.
      Credentials({
        id: "passkey",
        name: "Passkey",
        credentials: { challengeId: { type: "text" }, response: { type: "text" } },
        async authorize(credentials, req) {
          let response: unknown;
          try {
            response = JSON.parse(String(credentials?.response ?? ""));
          } catch {
            throw new Error("invalid_passkey");
          }
          const result = await signInWithPasskey(getDb(), {
            challengeId: String(credentials?.challengeId ?? ""),
            response: response as Parameters<typeof signInWithPasskey>[1]["response"],
            ip: header(req.headers, "x-client-ip") ?? "unknown",
            userAgent: header(req.headers, "user-agent"),
          });
          if (result.ok)
            return {
              id: result.user.id,
              email: result.user.email,
              sv: result.user.sessionVersion,
              sid: result.sessionId,
            };
          if (result.reason === "limited") throw new Error(`${LIMITED_PREFIX}${result.waitMs}`);
          throw new Error(result.reason);
        },
      }),
    ],
    callbacks: {
      jwt({ token, user }) {
        if (user) {
          token.uid = user.id;
          token.sv = (user as { sv?: number }).sv;
          token.sid = (user as { sid?: string }).sid;
        }
        return token;
      },
      session({ session, token }) {
        return { ...session, uid: token.uid, sv: token.sv, sid: token.sid } as typeof session;
      },
    },
  };
  return cached;
}
