import { sql } from "drizzle-orm";
import { boolean, check, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import { merchants } from "./merchants";

export const USER_ROLES = ["owner", "admin", "developer", "viewer"] as const;

/**
 * Dashboard users (docs/DASHBOARD.md). One merchant each; the email is unique whatever its case.
 * `sessionVersion` is carried in every session: raising it signs the user out everywhere.
 */
export const users = pgTable(
  "users",
  {
    id: text("id").primaryKey(),
    merchantId: text("merchant_id")
      .notNull()
      .references(() => merchants.id),
    email: text("email").notNull(),
    passwordHash: text("password_hash").notNull(),
    role: text("role", { enum: USER_ROLES }).notNull(),
    sessionVersion: integer("session_version").notNull().default(1),
    createdAt: timestamp("created_at", { withTimezone: true, precision: 3 }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("users_email_key").on(sql`lower(${t.email})`),
    index("users_merchant_idx").on(t.merchantId),
    check("users_role_check", sql`${t.role} in ('owner', 'admin', 'developer', 'viewer')`),
  ],
);

/**
 * Every password sign-in attempt (the email as typed, lowercased):
 * the per-account and per-IP limits count failures here.
 */
export const signInAttempts = pgTable(
  "sign_in_attempts",
  {
    id: text("id").primaryKey(),
    email: text("email").notNull(),
    ip: text("ip").notNull(),
    /** The client the limits count under: the IPv4 address or the IPv6 /64 (lib/platform/client-ip.ts). */
    clientKey: text("client_key"),
    /** What was tried: a password, a second-factor code, or a passkey (docs/DASHBOARD.md#sign-in-limits). */
    kind: text("kind").notNull().default("password"),
    succeeded: boolean("succeeded").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true, precision: 3 }).notNull().defaultNow(),
  },
  (t) => [
    index("sign_in_attempts_email_idx").on(t.email, t.createdAt),
    index("sign_in_attempts_email_client_idx").on(t.email, t.clientKey, t.createdAt),
    index("sign_in_attempts_client_idx").on(t.clientKey, t.createdAt),
  ],
);

/** The audit log: one row per dashboard mutation (who, what, when, from where). */
export const auditLog = pgTable(
  "audit_log",
  {
    id: text("id").primaryKey(),
    merchantId: text("merchant_id")
      .notNull()
      .references(() => merchants.id),
    /** Null when the operator's CLI or an API key did it (`details.api_key` names the key). */
    userId: text("user_id"),
    action: text("action").notNull(),
    target: text("target"),
    details: jsonb("details").$type<Record<string, unknown>>(),
    ip: text("ip"),
    userAgent: text("user_agent"),
    createdAt: timestamp("created_at", { withTimezone: true, precision: 3 }).notNull().defaultNow(),
  },
  (t) => [index("audit_log_merchant_idx").on(t.merchantId, t.createdAt)],
);

/**
 * Invitations to join a merchant's team (docs/DASHBOARD.md#team). Only the SHA-256 of the link's token is
 * stored; an invitation is used once (`usedAt`), or revoked, or expires (`expiresAt`, 7 days).
 */
export const invitations = pgTable(
  "invitations",
  {
    id: text("id").primaryKey(),
    merchantId: text("merchant_id")
      .notNull()
      .references(() => merchants.id),
    email: text("email").notNull(),
    role: text("role", { enum: USER_ROLES }).notNull(),
    tokenHash: text("token_hash").notNull(),
    invitedBy: text("invited_by").notNull(),
    expiresAt: timestamp("expires_at", { withTimezone: true, precision: 3 }).notNull(),
    usedAt: timestamp("used_at", { withTimezone: true, precision: 3 }),
    usedBy: text("used_by"),
    revokedAt: timestamp("revoked_at", { withTimezone: true, precision: 3 }),
    createdAt: timestamp("created_at", { withTimezone: true, precision: 3 }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("invitations_token_hash_key").on(t.tokenHash),
    index("invitations_merchant_idx").on(t.merchantId, t.createdAt),
    check("invitations_role_check", sql`${t.role} in ('owner', 'admin', 'developer', 'viewer')`),
  ],
);
