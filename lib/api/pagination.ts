import { z } from "zod";

const LIMIT_MESSAGE = "limit must be a whole number from 1 to 100";

/** `limit` and `starting_after` as the API's lists take them (docs/API.md#pagination) (query strings, so parsed from text). */
export const paginationQuery = {
  limit: z
    .string()
    .regex(/^\d+$/, { error: LIMIT_MESSAGE })
    .transform(Number)
    .pipe(z.number().min(1, { error: LIMIT_MESSAGE }).max(100, { error: LIMIT_MESSAGE }))
    .optional(),
  starting_after: z.string().min(1, { error: "starting_after must be an id from the previous page" }).optional(),
};
