/**
 * What stalled the web process during a case, from its own /metrics (prom-client's default metrics): the
 * event loop's delay (its histogram is reset at every scrape, so a scrape before the case starts it afresh)
 * and the time spent in garbage collection. A request's tail latency above the trivial route's floor is
 * either one of these or time outside the process (PostgreSQL, the scheduler of a 2-core machine).
 */
export interface WebPauses {
  /** The histogram's samples are timer intervals: its minimum is the sampling interval (10 ms), not a delay. */
  loopDelayMinMs: number;
  loopDelayP99Ms: number;
  loopDelayMaxMs: number;
  gcMs: number;
  majorGcs: number;
}

type Scrape = Map<string, number>;

async function scrape(metricsUrl: string): Promise<Scrape> {
  const text = await (await fetch(metricsUrl)).text();
  const values: Scrape = new Map();
  for (const line of text.split("\n")) {
    if (line.startsWith("#") || !line.trim()) continue;
    const at = line.lastIndexOf(" ");
    values.set(line.slice(0, at), Number(line.slice(at + 1)));
  }
  return values;
}

const gcSum = (s: Scrape) =>
  [...s].filter(([k]) => k.startsWith("nodejs_gc_duration_seconds_sum")).reduce((a, [, v]) => a + v, 0);
const majorCount = (s: Scrape) => s.get('nodejs_gc_duration_seconds_count{kind="major"}') ?? 0;

/** Starts watching (resets the loop-delay histogram); the returned function reads what happened since. */
export async function watchWebPauses(metricsUrl: string): Promise<() => Promise<WebPauses>> {
  const before = await scrape(metricsUrl);
  return async () => {
    const after = await scrape(metricsUrl);
    return {
      loopDelayMinMs: (after.get("nodejs_eventloop_lag_min_seconds") ?? 0) * 1000,
      loopDelayP99Ms: (after.get("nodejs_eventloop_lag_p99_seconds") ?? 0) * 1000,
      loopDelayMaxMs: (after.get("nodejs_eventloop_lag_max_seconds") ?? 0) * 1000,
      gcMs: (gcSum(after) - gcSum(before)) * 1000,
      majorGcs: majorCount(after) - majorCount(before),
    };
  };
}
