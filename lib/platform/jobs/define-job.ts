import type { JobHelpers } from "graphile-worker";
import type { z } from "zod";

/** A background job as the queue knows it: its name, what it does, its payload, its schedule if periodic. */
export interface JobContract<Name extends string = string, Payload extends z.ZodType = z.ZodType> {
  name: Name;
  description: string;
  payload: Payload;
  /** graphile-worker crontab schedule (minute hour day month weekday) for a periodic job. */
  cron?: string;
}

/** A contract with the handler that runs it (worker/jobs/): the handler calls domain code. */
export interface JobDefinition<Name extends string = string, Payload extends z.ZodType = z.ZodType>
  extends JobContract<Name, Payload> {
  // Method syntax keeps the parameter bivariant, so the registry can hold jobs of different payloads.
  handler(payload: z.output<Payload>, helpers: JobHelpers): Promise<void>;
}

/** Infers the job's name and payload type from the contract, for `enqueueJob` (lib/platform/jobs/contracts.ts). */
export function defineJobContract<Name extends string, Payload extends z.ZodType>(
  contract: JobContract<Name, Payload>,
): JobContract<Name, Payload> {
  return contract;
}

/** Gives a contract its handler, typed by the contract's payload. */
export function defineJob<Name extends string, Payload extends z.ZodType>(
  contract: JobContract<Name, Payload>,
  handler: JobDefinition<Name, Payload>["handler"],
): JobDefinition<Name, Payload> {
  return { ...contract, handler };
}
