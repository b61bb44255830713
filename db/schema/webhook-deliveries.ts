import { MODES } from "@/lib/kernel/mode";
import { sql } from "drizzle-orm";
import { bigserial, boolean, index, integer, pgTable, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";

/** One event to one endpoint: its state across attempts. Created in the event's transaction. */
export const webhookDeliveries = pgTable(
  "webhook_deliveries",
  {
    id: text("id").primaryKey(),
    eventId: text("event_id").notNull(),
    endpointId: text("endpoint_id").notNull(),
    merchantId: text("merchant_id").notNull(),
    mode: text("mode", { enum: MODES }).notNull(),
    status: text("status", { enum: ["pending", "succeeded", "failed"] }).notNull(),
    attemptCount: integer("attempt_count").notNull().default(0),
    nextAttemptAt: timestamp("next_attempt_at", { withTimezone: true, precision: 3 }),
    deliveredAt: timestamp("delivered_at", { withTimezone: true, precision: 3 }),
    createdAt: timestamp("created_at", { withTimezone: true, precision: 3 }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true, precision: 3 }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("webhook_deliveries_event_endpoint_key").on(t.eventId, t.endpointId),
    index("webhook_deliveries_endpoint_idx").on(t.endpointId, t.createdAt),
    // What the metrics count (deliveries waiting or given up) without reading the delivered ones.
    index("webhook_deliveries_undelivered_idx")
      .on(t.mode, t.status, t.updatedAt)
      .where(sql`${t.status} <> 'succeeded'`),
  ],
);

/** Every attempt, for the dashboard: when, outcome (status code or network error), latency, capped response. */
export const webhookAttempts = pgTable(
  "webhook_attempts",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    deliveryId: text("delivery_id").notNull(),
    attempt: integer("attempt").notNull(),
    startedAt: timestamp("started_at", { withTimezone: true, precision: 3 }).notNull(),
    durationMs: integer("duration_ms").notNull(),
    statusCode: integer("status_code"),
    error: text("error"),
    responseBody: text("response_body"),
    success: boolean("success").notNull(),
  },
  (t) => [index("webhook_attempts_delivery_idx").on(t.deliveryId, t.attempt)],
);
