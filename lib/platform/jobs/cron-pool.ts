import type pg from "pg";
import { log } from "@/lib/platform/log";
import { backoffDelay } from "@/lib/kernel/backoff";
import { sleep } from "@/lib/kernel/sleep";

// Socket errors and SQLSTATEs of a database that is restarting or out of reach, as opposed to a bad query:
// 08… connection exceptions, 57P01–03 shutdown and startup, 53300 too many connections.
const UNREACHABLE = new Set(["ECONNREFUSED", "ECONNRESET", "ETIMEDOUT", "EPIPE", "ENOTFOUND", "EAI_AGAIN"]);
const UNREACHABLE_STATES = new Set(["57P01", "57P02", "57P03", "53300"]);

function isDatabaseUnreachable(err: unknown): boolean {
  const { code, message } = (err ?? {}) as { code?: unknown; message?: unknown };
  if (typeof code === "string" && (UNREACHABLE.has(code) || UNREACHABLE_STATES.has(code) || code.startsWith("08")))
    return true;
  return (
    typeof message === "string" &&
    /Connection terminated|connection error|timeout exceeded when trying to connect/i.test(message)
  );
}

/**
 * The pool handed to graphile-worker. Its cron writes each minute's periodic jobs with `pool.query` (its only
 * direct query on the pool: workers take clients with `connect`) and, in 0.16, stops the whole runner on one
 * failure, leaving a promise of its own rejected with no handler (a crashed process): a database restart
 * across a minute's turn would end every periodic job (sweeps, expiries, redeliveries). Here that query waits
 * for the database instead, retried with backoff until it answers or `signal` (the runner's stop) aborts; the
 * cron then writes the minutes it missed, as it does after any late tick. Other errors are thrown as before.
 */
export function cronTolerantPool(pool: pg.Pool, signal: AbortSignal): pg.Pool {
  const query = async (...args: unknown[]) => {
    for (let attempt = 1; ; attempt++) {
      try {
        return await (pool.query as (...a: unknown[]) => Promise<unknown>)(...args);
      } catch (err) {
        if (signal.aborted || !isDatabaseUnreachable(err)) throw err;
        if (attempt === 1) log.warn("the job scheduler waits for the database", { err: String(err) });
        await sleep(backoffDelay(attempt, { baseMs: 500, maxMs: 5_000 }), signal);
      }
    }
  };
  return new Proxy(pool, {
    get(target, prop) {
      if (prop === "query") return query;
      const value = Reflect.get(target, prop, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}
