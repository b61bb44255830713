import { bigint, boolean, index, jsonb, pgTable, text, timestamp } from "drizzle-orm/pg-core";
import { users } from "./users";

const at = (name: string) => timestamp(name, { withTimezone: true, precision: 3 });

/**
 * One row per dashboard sign-in (docs/DASHBOARD.md#sessions). The JWT cookie carries the id; a session is
 * valid only while its row is open and seen within the idle limit. `secondFactorAt` is when this session
 * last proved a second factor (sign-in or step-up).
 */
export const userSessions = pgTable(
  "user_sessions",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    ip: text("ip"),
    userAgent: text("user_agent"),
    createdAt: at("created_at").notNull().defaultNow(),
    lastSeenAt: at("last_seen_at").notNull().defaultNow(),
    secondFactorAt: at("second_factor_at"),
    endedAt: at("ended_at"),
  },
  (t) => [index("user_sessions_user_idx").on(t.userId, t.createdAt)],
);

/**
 * A user's authenticator app (TOTP, RFC 6238). The secret is sealed with the master key. Unconfirmed until
 * the first code is entered; `lastTimeStep` refuses a code used before (replay).
 */
export const userTotp = pgTable("user_totp", {
  userId: text("user_id")
    .primaryKey()
    .references(() => users.id, { onDelete: "cascade" }),
  sealedSecret: text("sealed_secret").notNull(),
  lastTimeStep: bigint("last_time_step", { mode: "number" }),
  createdAt: at("created_at").notNull().defaultNow(),
  confirmedAt: at("confirmed_at"),
});

/** Ten single-use recovery codes per user, stored as SHA-256 hashes; a new set replaces the old. */
export const userRecoveryCodes = pgTable(
  "user_recovery_codes",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    codeHash: text("code_hash").notNull(),
    usedAt: at("used_at"),
    createdAt: at("created_at").notNull().defaultNow(),
  },
  (t) => [index("user_recovery_codes_user_idx").on(t.userId)],
);

/**
 * Passkeys (WebAuthn credentials). `id` is the credential id (base64url), `publicKey` its COSE key
 * (base64url); `counter` is the authenticator's signature counter (a counter that goes backwards means a
 * cloned authenticator, refused).
 */
export const userPasskeys = pgTable(
  "user_passkeys",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    publicKey: text("public_key").notNull(),
    counter: bigint("counter", { mode: "number" }).notNull().default(0),
    transports: jsonb("transports").$type<string[]>().notNull().default([]),
    backedUp: boolean("backed_up").notNull().default(false),
    createdAt: at("created_at").notNull().defaultNow(),
    lastUsedAt: at("last_used_at"),
  },
  (t) => [index("user_passkeys_user_idx").on(t.userId)],
);

/**
 * WebAuthn challenges, one per ceremony (register, sign in, step up): single use (deleted when answered)
 * and short-lived. `userId` is null for a passkey sign-in, where the passkey names its user.
 */
export const webauthnChallenges = pgTable("webauthn_challenges", {
  id: text("id").primaryKey(),
  userId: text("user_id").references(() => users.id, { onDelete: "cascade" }),
  purpose: text("purpose", { enum: ["register", "sign_in", "step_up"] }).notNull(),
  challenge: text("challenge").notNull(),
  expiresAt: at("expires_at").notNull(),
});
