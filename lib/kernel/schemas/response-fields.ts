import { z } from "zod";

/**
 * Fields the API's response objects share, as zod schemas: the OpenAPI document is generated from them
 * (lib/http/openapi/) and the API tests check every response against it.
 */

/** An amount as the API writes it: USDT with exactly six decimals. */
export const amountString = z
  .string()
  .regex(/^\d+\.\d{6}$/)
  .meta({ description: "USDT, a decimal string with exactly 6 decimals", examples: ["25.000000"] });

/** A time as the API writes it: ISO 8601 in UTC, with milliseconds. */
export const timestamp = z.iso.datetime().meta({ examples: ["2026-11-27T10:00:00.000Z"] });

/** The merchant's own key/value pairs, returned as given. */
export const metadataObject = z
  .record(z.string(), z.union([z.string(), z.number(), z.boolean()]))
  .meta({ id: "Metadata", description: "Up to 50 keys; values are strings, numbers or booleans." });

/** A page of a list: `has_more` says whether `starting_after` the last item gives more. */
export const listOf = <T extends z.ZodType>(item: T) =>
  z.strictObject({ object: z.literal("list"), data: z.array(item), has_more: z.boolean() });
