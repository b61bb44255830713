import { drizzle, type NodePgDatabase, type NodePgQueryResultHKT } from "drizzle-orm/node-postgres";
import type { PgDatabase } from "drizzle-orm/pg-core";
import pg from "pg";
import * as schema from "@/db/schema";

/** The database or a transaction: domain functions take this so callers decide the transaction boundary. */
export type Db = PgDatabase<NodePgQueryResultHKT, typeof schema>;

interface DbHandle {
  url: string;
  pool: pg.Pool;
  db: NodePgDatabase<typeof schema>;
}

// Route handlers are bundled by Next while scripts run under tsx: keep one pool per process on globalThis.
const registry = globalThis as unknown as { __usdtDb?: DbHandle };

// BIGINT (int8) values come back as strings by default; money columns are read as bigint by Drizzle.
export function createPool(url: string, max = Number(process.env.DATABASE_POOL_SIZE || 10)): pg.Pool {
  const pool = new pg.Pool({ connectionString: url, max, idleTimeoutMillis: 30_000 });
  // An idle client losing its connection must not crash the process; the pool replaces it.
  pool.on("error", (err) => console.error(`[db] idle client error: ${err.message}`));
  return pool;
}

export function getDbHandle(): DbHandle {
  const url = process.env.DATABASE_URL;
  if (!url) throw new Error("DATABASE_URL is not set (the start scripts set it after starting the database)");
  if (!registry.__usdtDb || registry.__usdtDb.url !== url) {
    const pool = createPool(url);
    registry.__usdtDb = { url, pool, db: drizzle(pool, { schema }) };
  }
  return registry.__usdtDb;
}

export function getDb(): NodePgDatabase<typeof schema> {
  return getDbHandle().db;
}

export function getPool(): pg.Pool {
  return getDbHandle().pool;
}

export async function closeDb(): Promise<void> {
  const handle = registry.__usdtDb;
  registry.__usdtDb = undefined;
  await handle?.pool.end();
}
