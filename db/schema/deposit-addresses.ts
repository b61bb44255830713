import { MODES } from "@/lib/kernel/mode";
import { CHAIN_FAMILIES } from "@/lib/kernel/chain-ids";
import { sql } from "drizzle-orm";
import { bigint, check, index, jsonb, pgTable, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import type { Metadata } from "@/lib/kernel/schemas/metadata";
import { customers } from "./customers";
import { merchants } from "./merchants";

/**
 * A merchant's permanent deposit addresses (docs/API.md#deposit-addresses): one per customer and chain (asking
 * again returns it), or any number without a customer. The address comes from the `deposit` range of the HD
 * pool (deposit_address_pool.purpose), never used for anything else. `watch_key` is what the watcher matches
 * transfers on (lib/chains/connect/watch-key.ts). A `disabled` address is still watched and its deposits
 * credited: money is never ignored.
 */
export const depositAddresses = pgTable(
  "deposit_addresses",
  {
    id: text("id").primaryKey(),
    merchantId: text("merchant_id")
      .notNull()
      .references(() => merchants.id),
    mode: text("mode", { enum: MODES }).notNull(),
    customerId: text("customer_id").references(() => customers.id),
    chain: text("chain").notNull(),
    family: text("family", { enum: CHAIN_FAMILIES }).notNull(),
    address: text("address").notNull(),
    watchKey: text("watch_key").notNull(),
    derivationIndex: bigint("derivation_index", { mode: "number" }).notNull(),
    status: text("status", { enum: ["active", "disabled"] }).notNull(),
    metadata: jsonb("metadata").$type<Metadata>().notNull().default({}),
    createdAt: timestamp("created_at", { withTimezone: true, precision: 3 }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true, precision: 3 }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("deposit_addresses_customer_chain_key")
      .on(t.merchantId, t.mode, t.customerId, t.chain)
      .where(sql`${t.customerId} is not null`),
    uniqueIndex("deposit_addresses_address_key").on(t.mode, t.family, t.address),
    index("deposit_addresses_watch_key_idx").on(t.mode, t.watchKey),
    index("deposit_addresses_owner_idx").on(t.merchantId, t.mode, t.createdAt, t.id),
    index("deposit_addresses_customer_idx").on(t.customerId),
    check("deposit_addresses_status_check", sql`${t.status} in ('active','disabled')`),
  ],
);
