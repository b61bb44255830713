import { z } from "zod";
import { METADATA_LIMITS } from "./metadata";

/** How many `metadata[key]` filters one list request may combine. */
export const MAX_METADATA_FILTERS = 10;

/**
 * What the lists of the API are narrowed by besides their own fields (docs/API.md#filters): `status` and `chain`
 * are each list's own values, validated by its schema.
 */
export interface ListFilters {
  status?: string;
  chain?: string;
  created?: { gt?: Date; gte?: Date; lt?: Date; lte?: Date };
  /** Each key's value, compared with the stored value as text (`123` finds the number 123 and the string "123"). */
  metadata?: Record<string, string>;
}

const MOMENT_MESSAGE = "must be Unix seconds or an ISO 8601 date-time with its offset (2026-12-01T00:00:00Z)";
// A date-time with an explicit offset (never local time, which would depend on the server), or a bare date (UTC).
const ISO_MOMENT =
  /^(\d{4})-(\d{2})-(\d{2})(T([01]\d|2[0-3]):[0-5]\d(:[0-5]\d(\.\d{1,6})?)?(Z|[+-]([01]\d|2[0-3]):[0-5]\d))?$/;

/**
 * A `YYYY-MM-DD` day's start, 00:00 UTC, or null when no such day exists (JavaScript takes 2026-02-30 for
 * March 2nd).
 */
export function utcDay(text: string): Date | null {
  const day = new Date(`${text}T00:00:00.000Z`);
  return /^\d{4}-\d{2}-\d{2}$/.test(text) && !Number.isNaN(day.getTime()) && day.toISOString().startsWith(text)
    ? day
    : null;
}

/** A moment as the API takes one: Unix seconds, an ISO 8601 date-time with its offset, or a bare date (UTC). */
export function momentField(name: string) {
  return z.string({ error: `${name} ${MOMENT_MESSAGE}` }).transform((text, ctx): Date => {
    const at = /^\d{1,12}$/.test(text)
      ? new Date(Number(text) * 1000)
      : ISO_MOMENT.test(text) && utcDay(text.slice(0, 10))
        ? new Date(text.length === 10 ? `${text}T00:00:00Z` : text)
        : null;
    if (at && !Number.isNaN(at.getTime())) return at;
    ctx.issues.push({ code: "custom", message: `${name} ${MOMENT_MESSAGE}`, input: text });
    return z.NEVER;
  });
}

const created = z
  .strictObject(
    {
      gt: momentField("created[gt]").optional(),
      gte: momentField("created[gte]").optional(),
      lt: momentField("created[lt]").optional(),
      lte: momentField("created[lte]").optional(),
    },
    { error: "created takes bounds: created[gte], created[gt], created[lt] or created[lte]" },
  )
  .optional()
  .meta({
    description:
      "Created within bounds: `created[gte]`, `created[gt]`, `created[lt]`, `created[lte]`, each Unix seconds or " +
      "an ISO 8601 date-time with its offset (a bare date is 00:00 UTC).",
    // No bound is the example: the API reference's "Try it out" then sends none (it fills an object from its example).
    param: { style: "deepObject", explode: true, example: {} },
  });

const metadata = z
  .record(
    z
      .string()
      .min(1)
      .max(METADATA_LIMITS.keyLength, { error: `metadata keys are 1 to ${METADATA_LIMITS.keyLength} characters` }),
    z.string().max(METADATA_LIMITS.valueLength, {
      error: `metadata values are at most ${METADATA_LIMITS.valueLength} characters`,
    }),
    {
      error: (issue) =>
        issue.code === "invalid_key"
          ? `metadata keys are 1 to ${METADATA_LIMITS.keyLength} characters`
          : "metadata is filtered by key: metadata[order_id]=A-1",
    },
  )
  .refine((m) => Object.keys(m).length <= MAX_METADATA_FILTERS, {
    error: `at most ${MAX_METADATA_FILTERS} metadata filters`,
  })
  .optional()
  .meta({
    description: "`metadata[key]=value`: the stored value of that key equals the text (several must all match).",
    // No bound is the example: the API reference's "Try it out" then sends none (it fills an object from its example).
    param: { style: "deepObject", explode: true, example: {} },
  });

/** The filters' fields of a list's query schema: `created[…]` and `metadata[…]`. */
export const listFilterQuery = { created, metadata };
