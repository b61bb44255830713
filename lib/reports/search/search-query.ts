import { z } from "zod";
import { invalidRequest } from "@/lib/kernel/domain-error";

/** What a search may find (docs/API.md#search). */
export const SEARCH_TYPES = ["payment", "payout", "refund"] as const;
export type SearchType = (typeof SEARCH_TYPES)[number];

/** The fields a term may name; a bare term matches any of them. */
export const SEARCH_FIELDS = ["id", "address", "tx", "amount", "description", "metadata"] as const;
type Field = (typeof SEARCH_FIELDS)[number];

export interface SearchTerm {
  /** Null: any field. */
  field: Field | null;
  /** `metadata[key]:value`: the key; null for any key. */
  key: string | null;
  value: string;
}

export interface ParsedSearch {
  terms: SearchTerm[];
  types: SearchType[];
}

const MAX_TERMS = 10;
// `field:value`, `metadata[key]:value`, `type:payout`, or a bare value; a value may be quoted ("two words").
const TERM = /\s*(?:(\w+)(?:\[([^\]]{1,40})\])?:)?(?:"([^"]*)"|(\S+))/y;

/** Reads a query into its terms; a malformed one is a 400 naming `query`. */
export function parseSearchQuery(text: string): ParsedSearch {
  const terms: SearchTerm[] = [];
  const types = new Set<SearchType>();
  let end = 0; // where the terms read so far end (a sticky regex that fails starts over at 0)
  TERM.lastIndex = 0;
  for (let match = TERM.exec(text); match; match = TERM.exec(text)) {
    end = TERM.lastIndex;
    const [, name, key, quoted, plain] = match;
    if (plain?.includes('"')) throw invalidRequest("query: a quote is not closed", "query");
    const value = quoted ?? plain ?? "";
    if (!value) throw invalidRequest("query has an empty value", "query");
    if (name === "type") {
      if (!(SEARCH_TYPES as readonly string[]).includes(value))
        throw invalidRequest(`type: must be one of ${SEARCH_TYPES.join(", ")}`, "query");
      types.add(value as SearchType);
      continue;
    }
    if (name !== undefined && !(SEARCH_FIELDS as readonly string[]).includes(name))
      throw invalidRequest(
        `query: unknown field '${name}' (fields: ${[...SEARCH_FIELDS, "type"].join(", ")})`,
        "query",
      );
    if (key !== undefined && name !== "metadata") throw invalidRequest("query: only metadata takes a [key]", "query");
    terms.push({ field: (name as Field | undefined) ?? null, key: key ?? null, value });
  }
  if (text.slice(end).trim()) throw invalidRequest("query: a quote is not closed", "query");
  if (terms.length === 0) throw invalidRequest("query needs a term to search for", "query");
  if (terms.length > MAX_TERMS) throw invalidRequest(`query: at most ${MAX_TERMS} terms`, "query");
  return { terms, types: types.size ? [...types] : [...SEARCH_TYPES] };
}

export const searchQuery = z.strictObject({
  query: z
    .string({ error: "query is required" })
    .min(1, { error: "query is required" })
    .max(500, { error: "query is at most 500 characters" })
    .meta({ description: "Terms, all of which must match (docs: Search syntax)." }),
  limit: z
    .string()
    .regex(/^\d+$/, { error: "limit must be an integer from 1 to 100" })
    .transform(Number)
    .pipe(z.number().min(1, { error: "limit must be an integer from 1 to 100" }).max(100))
    .optional(),
});
export type SearchQuery = z.output<typeof searchQuery>;
