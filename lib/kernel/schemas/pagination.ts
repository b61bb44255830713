import { z } from "zod";

const LIMIT_MESSAGE = "limit must be a whole number from 1 to 100";

/**
 * `limit` and `starting_after` as the API's lists take them
 * (docs/API.md#pagination) (query strings, so parsed from text).
 */
export const paginationQuery = {
  limit: z
    .string()
    .regex(/^\d+$/, { error: LIMIT_MESSAGE })
    .transform(Number)
    .pipe(z.number().min(1, { error: LIMIT_MESSAGE }).max(100, { error: LIMIT_MESSAGE }))
    .optional(),
  starting_after: z.string().min(1, { error: "starting_after must be an id from the previous page" }).optional(),
};

const ATTEMPT_CURSOR_MESSAGE =
  "starting_after must be a webhook attempt id (wha_ followed by digits) from the previous page";
const MAX_BIGINT = 9_223_372_036_854_775_807n;

/** Webhook attempts are paged by their numeric id (`wha_<n>`): anything else, or past bigint, is a 400. */
export const attemptPaginationQuery = {
  limit: paginationQuery.limit,
  starting_after: z
    .string()
    .refine((cursor) => /^wha_\d{1,19}$/.test(cursor) && BigInt(cursor.slice(4)) <= MAX_BIGINT, {
      error: ATTEMPT_CURSOR_MESSAGE,
    })
    .optional(),
};
