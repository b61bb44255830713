import { Logger, parseCrontab, run, type Runner, type TaskList } from "graphile-worker";
import type pg from "pg";
import { config } from "@/lib/platform/config/env";
import { log } from "@/lib/platform/log";
import { backoffDelay } from "@/lib/kernel/backoff";
import { sleep } from "@/lib/kernel/sleep";
import { cronTolerantPool } from "./cron-pool";
import { jobRunnerLiveness, watchForWedgedWorkers } from "./job-runner-liveness";

const logger = new Logger((scope) => (level, message, meta) => {
  const fields = { scope: scope.label, task: scope.taskIdentifier, job: scope.jobId, ...(meta ?? {}) };
  if (level === "error") log.error(message, fields);
  else if (level === "warning") log.warn(message, fields);
  else log.debug(message, fields);
});

/** How long a stop waits for running jobs before it frees them. */
const STOP_GRACE_MS = 10_000;

export interface JobRunner {
  /**
   * An orderly stop: running jobs finish, then this process's heartbeat rows go. A job still running after the
   * grace is freed for another worker (it is safe to run twice), rather than held locked until lock recovery.
   */
  stop(): Promise<void>;
}

/**
 * Starts the job runner for a task list and crontab (the worker's, worker/task-list.ts): heartbeats that
 * free a dead process's jobs, and the jobs of a worker the database failed under (job-runner-liveness.ts),
 * and signal handling left to the caller.
 *
 * graphile-worker (0.16) gives up on a database outage in two ways: its cron stops the whole runner when it
 * cannot write a minute's jobs (its query waits for the database instead: cron-pool.ts), and a worker that
 * cannot record its job's outcome stops for good and is never replaced, so each outage would take capacity
 * away until no job runs; and a runner started as the database fails can be left polling with an old error
 * (watchForWedgedWorkers). When a worker stops so, the runner is wedged, or it stops by itself for any
 * reason, the runner is stopped and started anew, tried again with backoff while the database is down.
 */
export async function startJobRunner(
  pool: pg.Pool,
  jobs: { taskList: TaskList; crontab: string; concurrency?: number; stopGraceMs?: number },
): Promise<JobRunner> {
  const liveness = jobRunnerLiveness(pool, config().jobLockRecoverySeconds);
  const stopped = new AbortController();
  const start = () =>
    run({
      pgPool: cronTolerantPool(pool, stopped.signal),
      taskList: jobs.taskList,
      parsedCronItems: parseCrontab(jobs.crontab),
      // Deliveries spend most of their time waiting on receivers, so a worker runs many at once.
      concurrency: jobs.concurrency ?? config().workerConcurrency,
      noHandleSignals: true,
      // Scheduled retries are found by polling: 500 ms keeps them within the ±1 s of their schedule.
      pollInterval: 500,
      logger,
      events: liveness.events,
    });
  // graphile's stop() throws when called twice; each runner is stopped once, whoever asks first.
  const halts = new WeakMap<Runner, Promise<void>>();
  const halt = (r: Runner) => {
    let halted = halts.get(r);
    if (!halted) halts.set(r, (halted = r.stop().catch(() => {})));
    return halted;
  };

  let runner = await start();
  const stopping = () => stopped.signal.aborted;
  // Stopping the current runner hands it to `supervise`, which starts the next one.
  const restart = (why: string) => {
    if (stopping()) return;
    log.error(`${why}; starting the job runner anew`);
    void halt(runner);
  };
  liveness.events.on("worker:fatalError", () => restart("a job worker stopped after the database failed under it"));

  const supervise = async () => {
    while (!stopping()) {
      await runner.promise.catch((err) => log.error("the job runner stopped", { err: String(err) }));
      if (stopping()) return;
      log.error("the job runner stopped; starting it anew");
      for (let attempt = 1; ; attempt++) {
        await sleep(backoffDelay(attempt, { baseMs: 500, maxMs: 5_000 }), stopped.signal);
        if (stopping()) return;
        try {
          runner = await start();
          log.warn("job runner started anew");
          break;
        } catch (err) {
          log.error("the job runner could not start; trying again", { err: String(err) });
        }
      }
      if (stopping()) return void (await halt(runner)); // stop() came while it started
    }
  };
  const supervising = supervise();
  const wedged = watchForWedgedWorkers(liveness.events, pool, () =>
    restart("the job workers keep failing while the database answers"),
  );
  liveness.start();
  return {
    async stop() {
      stopped.abort();
      wedged.stop();
      // Within the process's own shutdown limit (scripts/lib/shutdown.ts, 15 s), so the locks are freed before
      // it exits: a job that never ends (a chain call that hangs) would otherwise stay locked by a dead process.
      const graceOver = new AbortController();
      const halted = await Promise.race([
        halt(runner).then(() => true),
        sleep(jobs.stopGraceMs ?? STOP_GRACE_MS, graceOver.signal).then(() => false),
      ]);
      graceOver.abort();
      if (halted) await supervising;
      else log.warn("jobs still running at the stop were freed for other workers", { jobs: await liveness.free() });
      await liveness.stop();
    },
  };
}
