import type pg from "pg";
import type { RateLimiter, RateLimitResult } from "./types";

// One statement, atomic under concurrency: ON CONFLICT locks the bucket row and the WHERE is re-checked
// on the latest version, so two instances never both admit the request that would exceed the limit.
const ADMIT = `
insert into rate_limit_buckets as b (bucket, hits, updated_at) values ($1, array[$2::bigint], now())
on conflict (bucket) do update
  set hits = array(select h from unnest(b.hits) h where h > $2::bigint - $3::bigint order by h) || $2::bigint,
      updated_at = now()
  where (select count(*) from unnest(b.hits) h where h > $2::bigint - $3::bigint) < $4::int
returning cardinality(hits) as count`;

const OLDEST = `select min(h)::bigint as oldest from rate_limit_buckets, unnest(hits) h where bucket = $1 and h > $2::bigint - $3::bigint`;

export class PostgresRateLimiter implements RateLimiter {
  /** `pool` is read at each call: the process's current pool (a closed one is replaced by the next getPool). */
  constructor(private readonly pool: () => pg.Pool) {}

  async hit(bucket: string, limit: number, windowMs: number, nowMs = Date.now()): Promise<RateLimitResult> {
    const admitted = await this.pool().query<{ count: number }>(ADMIT, [bucket, nowMs, windowMs, limit]);
    const row = admitted.rows[0];
    if (row) return { allowed: true, limit, remaining: Math.max(0, limit - row.count), retryAfterMs: 0 };
    const oldest = await this.pool().query<{ oldest: string | null }>(OLDEST, [bucket, nowMs, windowMs]);
    const first = Number(oldest.rows[0]?.oldest ?? nowMs);
    return { allowed: false, limit, remaining: 0, retryAfterMs: Math.max(1, first + windowMs - nowMs) };
  }
}

/** Deletes buckets idle for longer than a window; bounded per call so a sweep never holds locks long. */
export async function pruneRateLimitBuckets(pool: pg.Pool, idleMs: number, batch = 1000): Promise<number> {
  const res = await pool.query(
    `delete from rate_limit_buckets where bucket in (
       select bucket from rate_limit_buckets where updated_at < now() - ($1::bigint * interval '1 millisecond') limit $2)`,
    [idleMs, batch],
  );
  return res.rowCount ?? 0;
}
