import type pg from "pg";
import type { RateLimiter, RateLimitResult } from "./types";

/**
 * The admission as SQL, for this limiter's one statement and for statements that fold it into theirs
 * (lib/identity/api-keys/authenticate-api-key.ts: the key and its window in one round trip). `rows` yields
 * (bucket, hits, updated_at) for the bucket to admit into; `p` names the parameters holding now (ms), the
 * window (ms) and the limit. Atomic under concurrency: ON CONFLICT locks the bucket row and the WHERE is
 * re-checked on the latest version, so two instances never both admit the request that would exceed the
 * limit. Returns the window's count once admitted; no row when refused.
 */
export const admitSql = (rows: string, p: { now: string; window: string; limit: string }) => `
insert into rate_limit_buckets as b (bucket, hits, updated_at) ${rows}
on conflict (bucket) do update
  set hits = array(select h from unnest(b.hits) h where h > ${p.now}::bigint - ${p.window}::bigint order by h)
             || ${p.now}::bigint,
      updated_at = now()
  where (select count(*) from unnest(b.hits) h where h > ${p.now}::bigint - ${p.window}::bigint) < ${p.limit}::int
returning cardinality(hits) as count`;

const ADMIT = admitSql("values ($1, array[$2::bigint], now())", { now: "$2", window: "$3", limit: "$4" });

const OLDEST =
  `select min(h)::bigint as oldest from rate_limit_buckets, unnest(hits) h ` +
  `where bucket = $1 and h > $2::bigint - $3::bigint`;

export class PostgresRateLimiter implements RateLimiter {
  /** `pool` is read at each call: the process's current pool (a closed one is replaced by the next getPool). */
  constructor(private readonly pool: () => pg.Pool) {}

  async hit(bucket: string, limit: number, windowMs: number, nowMs = Date.now()): Promise<RateLimitResult> {
    const admitted = await this.pool().query<{ count: number }>(ADMIT, [bucket, nowMs, windowMs, limit]);
    const row = admitted.rows[0];
    if (row) return admittedResult(limit, row.count);
    return this.refused(bucket, limit, windowMs, nowMs);
  }

  /** The answer for a refused request: when the window's oldest admitted request leaves it. */
  async refused(bucket: string, limit: number, windowMs: number, nowMs: number): Promise<RateLimitResult> {
    const oldest = await this.pool().query<{ oldest: string | null }>(OLDEST, [bucket, nowMs, windowMs]);
    const first = Number(oldest.rows[0]?.oldest ?? nowMs);
    return { allowed: false, limit, remaining: 0, retryAfterMs: Math.max(1, first + windowMs - nowMs) };
  }
}

export const admittedResult = (limit: number, count: number): RateLimitResult => ({
  allowed: true,
  limit,
  remaining: Math.max(0, limit - count),
  retryAfterMs: 0,
});

/** Deletes buckets idle for longer than a window; bounded per call so a sweep never holds locks long. */
export async function pruneRateLimitBuckets(pool: pg.Pool, idleMs: number, batch = 1000): Promise<number> {
  const res = await pool.query(
    `delete from rate_limit_buckets where bucket in (
       select bucket from rate_limit_buckets where updated_at < now() - ($1::bigint * interval '1 millisecond')
       limit $2)`,
    [idleMs, batch],
  );
  return res.rowCount ?? 0;
}
