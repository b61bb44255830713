import type { Task } from "graphile-worker";
import { log } from "@/lib/platform/log";
import { JOB_CONTRACTS, type JobName } from "@/lib/platform/jobs/contracts";
import type { JobDefinition } from "@/lib/platform/jobs/define-job";
import { JOBS } from "./registry";

/**
 * Runs a job's handler with its parsed payload. A payload the schema refuses would be refused again on
 * every retry (a job's payload never changes), so instead of graphile-worker's 25 attempts over about
 * four days the job fails permanently at once: attempts = max_attempts, as graphile-worker's own
 * permanently_fail_jobs does (that function skips locked jobs, so the running one is updated directly).
 * The row stays in graphile_worker.jobs with the reason in last_error, for an operator to look at.
 */
function validatedTask(job: JobDefinition): Task {
  return async (payload, helpers) => {
    const parsed = job.payload.safeParse(payload);
    if (parsed.success) return job.handler(parsed.data, helpers);
    const problems = parsed.error.issues.map((i) => `${i.path.join(".") || "payload"}: ${i.message}`).join("; ");
    log.error("job payload refused by its schema; the job fails without retries", {
      task: job.name,
      job: helpers.job.id,
      problems,
    });
    await helpers.withPgClient((client) =>
      client.query("update graphile_worker._private_jobs set max_attempts = attempts where id = $1", [helpers.job.id]),
    );
    helpers.job.max_attempts = helpers.job.attempts; // graphile-worker then reports the failure as final
    throw new Error(`invalid payload for ${job.name}: ${problems}`);
  };
}

// A contract without a handler would be queued and never run; a handler without a contract, never queued.
const handled = JOBS.map((job) => job.name).sort();
const contracted = JOB_CONTRACTS.map((c) => c.name).sort();
if (handled.join() !== contracted.join())
  throw new Error(`job handlers (${handled.join(", ")}) do not match the contracts (${contracted.join(", ")})`);

/** graphile-worker's task list: every registered job, its payload validated before its handler runs. */
export const taskList = Object.fromEntries(JOBS.map((job) => [job.name, validatedTask(job)])) as Record<JobName, Task>;

/** The crontab graphile-worker runs; `?max=1` so a worker that was down does not replay missed sweeps. */
export function crontab(): string {
  return JOBS.filter((job) => job.cron)
    .map((job) => `${job.cron} ${job.name} ?max=1&jobKey=${job.name}`)
    .join("\n");
}
