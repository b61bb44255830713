import { drizzle, type NodePgDatabase } from "drizzle-orm/node-postgres";
import pg from "pg";
import { config } from "@/lib/config/env";

/**
 * The database handle domain functions take: Drizzle bound either to the pool (autocommit) or to the one
 * connection of a transaction (see inTransaction). `$client` is that pool or connection, for the hot-path
 * statements that are written as plain parameterized SQL (lib/db/query.ts explains why).
 */
export type Db = NodePgDatabase & { $client: pg.Pool | pg.PoolClient };

interface DbHandle {
  url: string;
  pool: pg.Pool;
  db: Db;
}

// Route handlers are bundled by Next while scripts run under tsx: keep one pool per process on globalThis.
const registry = globalThis as unknown as { __usdtDb?: DbHandle };

export function createPool(url: string, max = config().databasePoolSize): pg.Pool {
  const pool = new pg.Pool({ connectionString: url, max, idleTimeoutMillis: 30_000 });
  // An idle client losing its connection must not crash the process; the pool replaces it.
  pool.on("error", (err) => console.error(`[db] idle client error: ${err.message}`));
  return pool;
}

export function getDbHandle(): DbHandle {
  const url = config().databaseUrl;
  if (!url) throw new Error("DATABASE_URL is not set (the start scripts set it after starting the database)");
  if (!registry.__usdtDb || registry.__usdtDb.url !== url) {
    const pool = createPool(url);
    registry.__usdtDb = { url, pool, db: drizzle(pool) };
  }
  return registry.__usdtDb;
}

export function getDb(): Db {
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

/**
 * Runs `fn` in a transaction on one connection. Called with a handle that is already inside a
 * transaction, it joins that transaction, so composed domain functions commit or fail together.
 */
export async function inTransaction<T>(db: Db, fn: (tx: Db) => Promise<T>): Promise<T> {
  if (!(db.$client instanceof pg.Pool)) return fn(db);
  const client = await db.$client.connect();
  let broken = false;
  try {
    await client.query("BEGIN");
    const result = await fn(drizzle(client));
    await client.query("COMMIT");
    return result;
  } catch (err) {
    await client.query("ROLLBACK").catch(() => (broken = true));
    throw err;
  } finally {
    client.release(broken ? true : undefined);
  }
}
