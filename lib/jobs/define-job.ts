import type { JobHelpers } from "graphile-worker";
import type { z } from "zod";

/**
 * One background job: its name, what it does, the payload it takes (validated when it runs; `enqueueJob`
 * is typed by it), its schedule when it is periodic, and the handler that calls domain code.
 */
export interface JobDefinition<Name extends string = string, Payload extends z.ZodType = z.ZodType> {
  name: Name;
  description: string;
  payload: Payload;
  /** graphile-worker crontab schedule (minute hour day month weekday) for a periodic job. */
  cron?: string;
  // Method syntax keeps the parameter bivariant, so the registry can hold jobs of different payloads.
  handler(payload: z.output<Payload>, helpers: JobHelpers): Promise<void>;
}

/** Infers the job's name and payload type from the definition, for the registry and `enqueueJob`. */
export function defineJob<Name extends string, Payload extends z.ZodType>(
  definition: JobDefinition<Name, Payload>,
): JobDefinition<Name, Payload> {
  return definition;
}
