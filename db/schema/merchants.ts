import { MODES } from "@/lib/kernel/mode";
import { sql } from "drizzle-orm";
import { check, index, pgTable, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";

/** A merchant: the tenant. Every resource row carries its merchant_id and mode. */
export const merchants = pgTable("merchants", {
  id: text("id").primaryKey(),
  name: text("name").notNull(),
  email: text("email").notNull(),
  createdAt: timestamp("created_at", { withTimezone: true, precision: 3 }).notNull().defaultNow(),
});

/**
 * API keys. Only the SHA-256 of the secret is stored; `displayPrefix` + `last4` let the dashboard show
 * which key is which without being able to reconstruct it.
 */
export const apiKeys = pgTable(
  "api_keys",
  {
    id: text("id").primaryKey(),
    merchantId: text("merchant_id")
      .notNull()
      .references(() => merchants.id),
    mode: text("mode", { enum: MODES }).notNull(),
    secretHash: text("secret_hash").notNull(),
    displayPrefix: text("display_prefix").notNull(),
    last4: text("last4").notNull(),
    scopes: text("scopes").array().notNull(),
    createdAt: timestamp("created_at", { withTimezone: true, precision: 3 }).notNull().defaultNow(),
    lastUsedAt: timestamp("last_used_at", { withTimezone: true, precision: 3 }),
    revokedAt: timestamp("revoked_at", { withTimezone: true, precision: 3 }),
    /** Set on the new key when it was created by rotating another one. */
    replacesKeyId: text("replaces_key_id"),
    /** The dashboard user who created (or rolled into) this key; null for the operator's CLI. */
    createdByUserId: text("created_by_user_id"),
  },
  (t) => [
    uniqueIndex("api_keys_secret_hash_key").on(t.secretHash),
    index("api_keys_merchant_idx").on(t.merchantId, t.createdAt),
    check("api_keys_mode_check", sql`${t.mode} in ('sandbox', 'live')`),
  ],
);
