import { MODES } from "@/lib/kernel/mode";
import { bigint, index, integer, pgTable, primaryKey, text, timestamp } from "drizzle-orm/pg-core";

/**
 * Idempotency records, scoped to merchant and mode. A row is inserted in the same transaction as the
 * request's own writes, so a crash leaves either both or neither; the unique key makes a concurrent
 * request with the same key wait for the first one's commit and then replay its response.
 */
export const idempotencyKeys = pgTable(
  "idempotency_keys",
  {
    merchantId: text("merchant_id").notNull(),
    mode: text("mode", { enum: MODES }).notNull(),
    key: text("key").notNull(),
    requestHash: text("request_hash").notNull(),
    method: text("method").notNull(),
    path: text("path").notNull(),
    /**
     * Null while the claiming request executes: inside its transaction, or committed "in progress" by a POST
     * that calls out over the network between two transactions (lib/http/api/execute-phased-write.ts).
     */
    responseStatus: integer("response_status"),
    responseBody: text("response_body"),
    createdAt: timestamp("created_at", { withTimezone: true, precision: 3 }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.merchantId, t.mode, t.key] }),
    index("idempotency_keys_created_idx").on(t.createdAt),
  ],
);

/**
 * Sliding-window rate-limit log when no Redis is configured: one row per bucket holding the epoch
 * milliseconds of the requests admitted in the last window (at most `limit` of them).
 */
export const rateLimitBuckets = pgTable(
  "rate_limit_buckets",
  {
    bucket: text("bucket").primaryKey(),
    hits: bigint("hits", { mode: "number" }).array().notNull(),
    updatedAt: timestamp("updated_at", { withTimezone: true, precision: 3 }).notNull().defaultNow(),
  },
  (t) => [index("rate_limit_buckets_updated_idx").on(t.updatedAt)],
);

/** Small key/value facts about this installation (for example: demo merchant already created). */
export const installationFacts = pgTable("installation_facts", {
  key: text("key").primaryKey(),
  value: text("value").notNull(),
  createdAt: timestamp("created_at", { withTimezone: true, precision: 3 }).notNull().defaultNow(),
});
