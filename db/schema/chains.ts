import { MODES } from "@/lib/kernel/mode";
import { bigint, boolean, integer, pgTable, primaryKey, text, timestamp } from "drizzle-orm/pg-core";

/**
 * The local sandbox chains, registered by the process that runs them (scripts/start-chains.ts) so that
 * every web and worker process finds their RPC endpoints and token contracts.
 */
export const sandboxChains = pgTable("sandbox_chains", {
  chain: text("chain").primaryKey(),
  rpcUrl: text("rpc_url").notNull(),
  /** Extra endpoints some families need (tron: the JSON-RPC URL, the backing anvil). */
  extra: text("extra").notNull().default("{}"),
  chainId: bigint("chain_id", { mode: "number" }),
  tokenAddress: text("token_address").notNull(),
  decimals: integer("decimals").notNull(),
  blockTimeMs: integer("block_time_ms").notNull(),
  emulated: boolean("emulated").notNull().default(false),
  updatedAt: timestamp("updated_at", { withTimezone: true, precision: 3 }).notNull().defaultNow(),
});

/** How far each watcher has read its chain; advanced in the transaction that applies what it read. */
export const chainCursors = pgTable(
  "chain_cursors",
  {
    mode: text("mode", { enum: MODES }).notNull(),
    chain: text("chain").notNull(),
    blockNumber: bigint("block_number", { mode: "number" }).notNull(),
    blockHash: text("block_hash"),
    blockTime: timestamp("block_time", { withTimezone: true, precision: 3 }),
    updatedAt: timestamp("updated_at", { withTimezone: true, precision: 3 }).notNull().defaultNow(),
    /** The chain's head as the watcher last read it, and when (the dashboard's chain health: lag = head − block). */
    headNumber: bigint("head_number", { mode: "number" }),
    headSeenAt: timestamp("head_seen_at", { withTimezone: true, precision: 3 }),
    /** The watcher's last failed scan (credentials stripped from URLs), and when. */
    lastError: text("last_error"),
    lastErrorAt: timestamp("last_error_at", { withTimezone: true, precision: 3 }),
  },
  (t) => [primaryKey({ columns: [t.mode, t.chain] })],
);

/** Hashes of recently processed blocks, to notice a reorganization and find where the chains diverged. */
export const chainBlocks = pgTable(
  "chain_blocks",
  {
    mode: text("mode", { enum: MODES }).notNull(),
    chain: text("chain").notNull(),
    number: bigint("number", { mode: "number" }).notNull(),
    hash: text("hash").notNull(),
  },
  (t) => [primaryKey({ columns: [t.mode, t.chain, t.number] })],
);
