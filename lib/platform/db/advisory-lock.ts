import { createHash } from "node:crypto";
import type pg from "pg";
import { log } from "@/lib/platform/log";
import { sleep } from "@/lib/kernel/sleep";

/** Maps a lock name to the signed 64-bit key Postgres advisory locks take. */
export function advisoryKey(name: string): bigint {
  return createHash("sha256").update(name).digest().readBigInt64BE(0);
}

/** Runs `fn` while holding a session advisory lock, waiting for it (used to serialize migrations). */
export async function withAdvisoryLock<T>(
  pool: pg.Pool,
  name: string,
  fn: (client: pg.PoolClient) => Promise<T>,
): Promise<T> {
  const client = await pool.connect();
  const key = advisoryKey(name).toString();
  try {
    await client.query("select pg_advisory_lock($1::bigint)", [key]);
    try {
      return await fn(client);
    } finally {
      await client.query("select pg_advisory_unlock($1::bigint)", [key]);
    }
  } finally {
    client.release();
  }
}

export interface Leadership {
  /** Resolves when leadership is lost (connection dropped) or released. */
  readonly lost: Promise<void>;
  release(): Promise<void>;
}

/**
 * Tries once to become the single leader for `name` across all worker instances. Leadership is a
 * session advisory lock on a dedicated connection: it lasts until release() or until that connection
 * dies (process crash, network loss), at which point Postgres frees it and another instance can take it.
 */
export async function tryAcquireLeadership(pool: pg.Pool, name: string): Promise<Leadership | null> {
  const client = await pool.connect();
  const key = advisoryKey(name).toString();
  let acquired = false;
  try {
    const res = await client.query<{ ok: boolean }>("select pg_try_advisory_lock($1::bigint) as ok", [key]);
    acquired = res.rows[0]?.ok === true;
  } finally {
    if (!acquired) client.release();
  }
  if (!acquired) return null;

  let resolveLost!: () => void;
  const lost = new Promise<void>((resolve) => (resolveLost = resolve));
  let done = false;
  const finish = (destroy: boolean) => {
    if (done) return;
    done = true;
    client.removeListener("error", onError);
    client.release(destroy ? true : undefined);
    resolveLost();
  };
  const onError = () => finish(true);
  client.on("error", onError);

  return {
    lost,
    async release() {
      if (done) return;
      try {
        await client.query("select pg_advisory_unlock($1::bigint)", [key]);
        finish(false);
      } catch {
        finish(true);
      }
    },
  };
}

/**
 * Keeps trying to become leader and runs `work` while leading; `work` receives a signal that aborts
 * when leadership is lost or `stop` aborts. Returns when `stop` aborts. An error from `work` (the database
 * restarting as a loop starts, say) gives leadership up and tries again: it never ends the loop, which would
 * stop that chain's watcher or sender for good.
 */
export async function runAsLeader(
  pool: pg.Pool,
  name: string,
  work: (signal: AbortSignal) => Promise<void>,
  opts: { stop: AbortSignal; retryMs?: number },
): Promise<void> {
  const retryMs = opts.retryMs ?? 5_000;
  while (!opts.stop.aborted) {
    const leadership = await tryAcquireLeadership(pool, name).catch(() => null);
    if (leadership) {
      const controller = new AbortController();
      const abort = () => controller.abort();
      opts.stop.addEventListener("abort", abort, { once: true });
      void leadership.lost.then(abort);
      try {
        await work(controller.signal);
      } catch (err) {
        log.warn("leader stopped by an error; taking leadership again", { leader: name, error: String(err) });
      } finally {
        opts.stop.removeEventListener("abort", abort);
        await leadership.release();
      }
    }
    if (!opts.stop.aborted) await sleep(retryMs, opts.stop);
  }
}
