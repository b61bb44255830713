import { z } from "zod";

/** Metadata limits (docs/API.md#metadata: Stripe's, so merchants' habits carry over). */
export const METADATA_LIMITS = { keys: 50, keyLength: 40, valueLength: 500 } as const;

export type Metadata = Record<string, string | number | boolean>;

/**
 * A flat object of up to 50 keys (1-40 characters) whose values are strings (≤ 500 characters), finite
 * numbers or booleans. Each problem names its key: `param` is `metadata.<key>`.
 */
export const metadataField = z
  .any()
  .transform((value: unknown, ctx): Metadata => {
    const fail = (message: string, path: string[] = []) => {
      ctx.issues.push({ code: "custom", message, input: value, path });
      return z.NEVER;
    };
    if (!value || typeof value !== "object" || Array.isArray(value))
      return fail("metadata must be an object of key/value pairs");
    const entries = Object.entries(value as Record<string, unknown>);
    if (entries.length > METADATA_LIMITS.keys) return fail(`metadata may have at most ${METADATA_LIMITS.keys} keys`);
    for (const [key, v] of entries) {
      if (key.length === 0 || key.length > METADATA_LIMITS.keyLength)
        return fail(`metadata keys must be 1 to ${METADATA_LIMITS.keyLength} characters`, [key]);
      if (typeof v === "string") {
        if (v.length > METADATA_LIMITS.valueLength)
          return fail(`metadata values must be at most ${METADATA_LIMITS.valueLength} characters`, [key]);
      } else if (!(typeof v === "boolean" || (typeof v === "number" && Number.isFinite(v)))) {
        return fail("metadata values must be strings, numbers or booleans", [key]);
      }
    }
    return value as Metadata;
  })
  .meta({
    // What the OpenAPI document shows: the checks above are the rule.
    type: "object",
    maxProperties: METADATA_LIMITS.keys,
    propertyNames: { minLength: 1, maxLength: METADATA_LIMITS.keyLength },
    additionalProperties: { type: ["string", "number", "boolean"], maxLength: METADATA_LIMITS.valueLength },
    description: "Your own key/value pairs: up to 50 keys of 1–40 characters; string values up to 500 characters.",
  });
