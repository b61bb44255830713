import { drizzle, type NodePgDatabase } from "drizzle-orm/node-postgres";
import pg from "pg";
import { config } from "@/lib/platform/config/env";
import { closeChangeFeed } from "./change-feed";
import { prepared } from "./prepared-statement";

/**
 * The database handle domain functions take: Drizzle bound either to the pool (autocommit) or to the one
 * connection of a transaction (see inTransaction). `$client` is that pool or connection, for the hot-path
 * statements that are written as plain parameterized SQL (lib/platform/db/query.ts explains why).
 */
export type Db = NodePgDatabase & { $client: pg.Pool | pg.PoolClient };

interface DbHandle {
  url: string;
  pool: pg.Pool;
  db: Db;
}

// Route handlers are bundled by Next while scripts run under tsx: keep one pool per process on globalThis.
const registry = globalThis as unknown as { __usdtDb?: DbHandle; __usdtWorkerJobs?: number };

/**
 * Called by the worker before it touches the database: jobs wait for a connection rather than fail after the
 * acquire timeout (a request's limit, not a job's), and the pool holds a connection for every job at once.
 */
export function sizePoolForJobs(concurrency: number): void {
  registry.__usdtWorkerJobs = concurrency;
}

export interface PoolOptions {
  /** Wait at most this long for a free connection (pg-pool then rejects: see isPoolExhausted). */
  acquireTimeoutMs?: number;
  /** Postgres statement_timeout on every connection of the pool. */
  statementTimeoutMs?: number;
  /**
   * Postgres idle_in_transaction_session_timeout: a transaction left waiting on the application this long is
   * ended by the server, so no stuck request can hold row locks (an Idempotency-Key's claim) indefinitely.
   */
  idleInTransactionTimeoutMs?: number;
  /** Statements issued without awaiting on one connection go out together (pg's pipeline mode). */
  pipeline?: boolean;
}

/**
 * A pool without timeouts unless given: the watchers' session connections (leader lock, long scans) and
 * migrations (which wait on an advisory lock) must not be cut off. The process pool of getDb has both.
 */
export function createPool(url: string, max = config().databasePoolSize, options: PoolOptions = {}): pg.Pool {
  const pool = new pg.Pool({
    connectionString: url,
    max,
    idleTimeoutMillis: 30_000,
    connectionTimeoutMillis: options.acquireTimeoutMs ?? 0,
    pipeline: options.pipeline ?? false,
    ...(options.statementTimeoutMs ? { statement_timeout: options.statementTimeoutMs } : {}),
    ...(options.idleInTransactionTimeoutMs
      ? { idle_in_transaction_session_timeout: options.idleInTransactionTimeoutMs }
      : {}),
  });
  // An idle client losing its connection must not crash the process; the pool replaces it.
  pool.on("error", (err) => console.error(`[db] idle client error: ${err.message}`));
  // Nor one checked out: pg emits the lost socket as an 'error' event besides failing its queries (the pool
  // listens only while a client is idle), and an 'error' nobody listens to ends the process. The failure
  // reaches the code through its query's rejection, and the client is not queryable after it.
  pool.on("connect", (client) => client.on("error", () => {}));
  return pool;
}

export function getDbHandle(): DbHandle {
  const url = config().databaseUrl;
  if (!url) throw new Error("DATABASE_URL is not set (the start scripts set it after starting the database)");
  if (!registry.__usdtDb || registry.__usdtDb.url !== url) {
    const cfg = config();
    const jobs = registry.__usdtWorkerJobs;
    const pool = createPool(url, jobs ? Math.max(cfg.databasePoolSize, jobs + 2) : cfg.databasePoolSize, {
      acquireTimeoutMs: jobs ? 0 : cfg.databaseAcquireTimeoutMs,
      statementTimeoutMs: cfg.databaseStatementTimeoutMs,
      // A request's transactions make no network calls: idle inside one for twice a statement's limit is a fault.
      idleInTransactionTimeoutMs: jobs ? undefined : 2 * cfg.databaseStatementTimeoutMs,
      // A request's transaction sends BEGIN with its first statement and COMMIT with its last (inTransaction).
      // The worker's pool does not pipeline: graphile-worker shares it, and jobs are not latency-bound.
      pipeline: !jobs,
    });
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

/** Ends the process's pool and its change feed's listening connection. */
export async function closeDb(): Promise<void> {
  const handle = registry.__usdtDb;
  registry.__usdtDb = undefined;
  await Promise.all([handle?.pool.end(), closeChangeFeed()]);
}

/** pg-pool's rejection when no connection became free within the acquire timeout. */
export function isPoolExhausted(err: unknown): boolean {
  return err instanceof Error && /timeout exceeded when trying to connect/i.test(err.message);
}

/** Postgres cancelled a statement that ran past statement_timeout (SQLSTATE 57014, query_canceled). */
export function isStatementTimeout(err: unknown): boolean {
  return (err as { code?: string } | null)?.code === "57014";
}

/** A statement to send as is: text and its parameters. */
export interface Statement {
  text: string;
  values: unknown[];
}

/**
 * Runs `fn` in a transaction on one connection. Called with a handle that is already inside a
 * transaction, it joins that transaction, so composed domain functions commit or fail together.
 *
 * On a pipelining connection (the web's pool) BEGIN goes out with the transaction's first statement, and
 * `last` (statements built from fn's result whose answers nobody reads: a resource's insert, the stored
 * idempotent response) with COMMIT: fewer round trips. One of them failing aborts the transaction, so its
 * COMMIT is answered ROLLBACK; the first failure is thrown.
 */
export async function inTransaction<T>(
  db: Db,
  fn: (tx: Db) => Promise<T>,
  opts: { last?: (result: T) => Statement[] } = {},
): Promise<T> {
  if (!(db.$client instanceof pg.Pool)) {
    const result = await fn(db);
    for (const statement of opts.last?.(result) ?? [])
      await db.$client.query(prepared(statement.text, statement.values));
    return result;
  }
  const client = await db.$client.connect();
  let broken = false;
  // BEGIN cannot fail on a healthy connection; on a broken one every statement after it fails too.
  const begin = client.query("BEGIN");
  begin.catch(() => {});
  try {
    if (!client.pipeline) await begin;
    const result = await fn(drizzle(client));
    await begin;
    const sent = (opts.last?.(result) ?? []).map((statement) =>
      client.query(prepared(statement.text, statement.values)),
    );
    const commit = client.query("COMMIT");
    const settled = await Promise.allSettled([...sent, commit]);
    const failed = settled.find((s) => s.status === "rejected");
    if (failed) throw failed.reason;
    const committed = (await commit) as pg.QueryResult;
    if (committed.command !== "COMMIT") throw new Error("the transaction was rolled back at COMMIT");
    return result;
  } catch (err) {
    await client.query("ROLLBACK").catch(() => (broken = true));
    throw err;
  } finally {
    client.release(broken ? true : undefined);
  }
}
