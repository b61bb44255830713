import { EventEmitter } from "node:events";
import os from "node:os";
import type { WorkerEvents } from "graphile-worker";
import type pg from "pg";
import { log } from "@/lib/platform/log";

/**
 * graphile-worker frees a job locked by a worker only after 4 hours: a worker process killed mid-job (SIGKILL,
 * out of memory, a lost machine) would hold its payouts, sweeps and webhook deliveries that long. Each process
 * records its workers' ids in `job_runners` with a heartbeat; every process, on each beat, frees the locks of
 * ids whose heartbeat is older than `staleAfterSeconds` (graphile's own force_unlock_workers), so the jobs run
 * again on a live worker. Every job here is safe to run twice (the state it moves is checked under locks).
 *
 * A worker that could not record its job's outcome (the database failed under it) stops for good, its job
 * still locked in its name ("committing seppuku"): its id is no longer beaten for, and its locks are freed on
 * the next beat that reaches the database (nothing of it runs any more).
 */
export interface JobRunnerLiveness {
  /** Pass to graphile-worker's `run({ events })`: it learns the workers' ids as they are created. */
  events: WorkerEvents;
  /** Starts the heartbeat loop (after `run()` resolved). */
  start(): void;
  /** Frees the jobs this process's workers hold (a stop whose jobs did not end); returns their ids. */
  free(): Promise<string[]>;
  /** Stops beating and removes this process's rows (an orderly stop frees its locks itself). */
  stop(): Promise<void>;
}

export function jobRunnerLiveness(pool: pg.Pool, staleAfterSeconds: number): JobRunnerLiveness {
  const events = new EventEmitter() as WorkerEvents;
  const ids = new Set<string>();
  const processName = `${os.hostname()}:${process.pid}`;
  const dead = new Set<string>();
  events.on("worker:create", ({ worker }) => ids.add(worker.workerId));
  events.on("worker:fatalError", ({ worker }) => {
    ids.delete(worker.workerId);
    dead.add(worker.workerId);
  });
  let timer: NodeJS.Timeout | undefined;
  let beating: Promise<void> = Promise.resolve();

  const beat = async () => {
    if (ids.size) {
      await pool.query(
        `insert into job_runners (worker_id, process) select unnest($1::text[]), $2
         on conflict (worker_id) do update set heartbeat_at = now()`,
        [[...ids], processName],
      );
    }
    if (dead.size) {
      const gone = [...dead];
      await pool.query("select graphile_worker.force_unlock_workers($1::text[])", [gone]);
      for (const id of gone) dead.delete(id);
      log.warn("freed the jobs of workers stopped by a database failure", { workers: gone });
    }
    const freed = await freeDeadRunnersJobs(pool, staleAfterSeconds);
    if (freed.length) log.warn("freed jobs of worker processes that stopped", { workers: freed });
  };

  return {
    events,
    start() {
      const every = Math.max(1, Math.floor(staleAfterSeconds / 6)) * 1000;
      const tick = () => {
        beating = beat().catch((err) => log.error("job runner heartbeat failed", { err: String(err) }));
        void beating.then(() => {
          if (timer) timer = setTimeout(tick, every);
        });
      };
      timer = setTimeout(tick, 0);
    },
    async free() {
      const { rows } = await pool.query<{ id: string }>(
        "select id::text from graphile_worker.jobs where locked_by = any($1::text[])",
        [[...ids]],
      );
      await pool.query("select graphile_worker.force_unlock_workers($1::text[])", [[...ids]]);
      return rows.map((r) => r.id);
    },
    async stop() {
      clearTimeout(timer);
      timer = undefined;
      await beating;
      if (ids.size) await pool.query("delete from job_runners where worker_id = any($1)", [[...ids]]);
    },
  };
}

/**
 * Frees the jobs (and job queues) locked by workers with no heartbeat for `staleAfterSeconds`, counting only
 * locks at least that old, so a worker that has just started and not yet beaten keeps its jobs. Returns the
 * worker ids freed. Rows of long-dead runners are forgotten after a day.
 */
export async function freeDeadRunnersJobs(pool: pg.Pool, staleAfterSeconds: number): Promise<string[]> {
  const { rows } = await pool.query<{ locked_by: string }>(
    `select distinct j.locked_by
       from graphile_worker.jobs j
      where j.locked_by is not null
        and j.locked_at < now() - make_interval(secs => $1)
        and not exists (select 1 from job_runners r
                         where r.worker_id = j.locked_by and r.heartbeat_at > now() - make_interval(secs => $1))`,
    [staleAfterSeconds],
  );
  const dead = rows.map((r) => r.locked_by);
  if (dead.length) await pool.query("select graphile_worker.force_unlock_workers($1::text[])", [dead]);
  await pool.query("delete from job_runners where heartbeat_at < now() - interval '1 day'");
  return dead;
}

/**
 * graphile-worker (0.16) keeps the first lookup of its task ids as a promise: when the database fails under
 * that lookup (a runner started as the database restarts), the failed promise stays, and every worker's every
 * poll fails with that old error while the database answers again. Such a runner never takes a job. Every
 * `everyMs`, when the workers' polls have only failed since the last look and the database answers this
 * process, twice in a row, `onWedged` is called (the runner is started anew). An outage alone never calls it.
 */
export function watchForWedgedWorkers(
  events: WorkerEvents,
  pool: pg.Pool,
  onWedged: () => void,
  everyMs = 3_000,
): { stop(): void } {
  let failed = 0;
  let succeeded = 0;
  let wedgedLooks = 0;
  events.on("worker:getJob:error", () => failed++);
  events.on("worker:getJob:empty", () => succeeded++);
  events.on("job:start", () => succeeded++);
  const look = async () => {
    const onlyFailed = failed > 0 && succeeded === 0;
    failed = succeeded = 0;
    const answers =
      onlyFailed &&
      (await pool.query("select 1").then(
        () => true,
        () => false,
      ));
    wedgedLooks = answers ? wedgedLooks + 1 : 0;
    if (wedgedLooks < 2) return;
    wedgedLooks = 0;
    onWedged();
  };
  const timer = setInterval(() => void look(), everyMs);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
