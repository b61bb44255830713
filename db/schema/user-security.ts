import { bigint, index, pgTable, text, timestamp } from "drizzle-orm/pg-core";
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
