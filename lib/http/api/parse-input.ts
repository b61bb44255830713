import type { z } from "zod";
import { invalidRequest } from "@/lib/kernel/domain-error";
import { ApiError } from "./errors";

export const MAX_BODY_BYTES = 64 * 1024;
const tooLarge = () => invalidRequest(`Request body is larger than ${MAX_BODY_BYTES} bytes.`);

/**
 * The body as UTF-8 text, reading no more than MAX_BODY_BYTES: a larger body is refused as soon as its
 * declared length or its bytes pass the limit, without waiting for (or buffering) the rest. Invalid UTF-8
 * and a leading byte-order mark are refused rather than silently repaired (docs/API.md#requests).
 */
async function readBodyText(req: Request): Promise<string> {
  const declared = Number(req.headers.get("content-length") ?? 0);
  if (declared > MAX_BODY_BYTES) throw tooLarge();
  if (!req.body) return "";
  const reader = req.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > MAX_BODY_BYTES) {
      await reader.cancel().catch(() => {});
      throw tooLarge();
    }
    chunks.push(value);
  }
  const bytes = Buffer.concat(chunks);
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf)
    throw invalidRequest("Request body starts with a byte-order mark; send JSON in UTF-8 without one.");
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    throw invalidRequest("Request body is not valid UTF-8.");
  }
}

/**
 * Reads a POST body as a JSON object. An empty body counts as `{}` (so body-less POSTs such as replay
 * need no Content-Type); anything else must be `application/json`, valid JSON, and an object.
 */
export async function readJsonBody(req: Request): Promise<Record<string, unknown>> {
  const text = await readBodyText(req);
  if (text.trim() === "") return {};
  const contentType = req.headers.get("content-type") ?? "";
  if (!/^application\/json\s*(;|$)/i.test(contentType)) {
    throw invalidRequest(
      `Content-Type must be application/json (got ${contentType ? `'${contentType.slice(0, 60)}'` : "none"}).`,
    );
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw invalidRequest("Request body is not valid JSON.");
  }
  if (!parsed || typeof parsed !== "object" || Array.isArray(parsed)) {
    throw invalidRequest(
      `Request body must be a JSON object, ` +
        `not ${Array.isArray(parsed) ? "an array" : parsed === null ? "null" : `a ${typeof parsed}`}.`,
    );
  }
  return parsed as Record<string, unknown>;
}

/** A query value: text, or (from `name[key]=value` parameters) an object of texts. */
export type QueryValue = string | Record<string, string>;

/**
 * Query string to a plain object; a repeated parameter is an error rather than silently picking one. Stripe's
 * bracketed parameters, `created[gte]=…` or `metadata[order_id]=…`, become one object per name
 * (`{ created: { gte: "…" } }`), which a schema validates as a whole (docs/API.md#filters).
 */
export function readQuery(url: URL): Record<string, QueryValue> {
  const out: Record<string, QueryValue> = {};
  for (const [key, value] of url.searchParams) {
    const bracketed = /^([^[\]]+)\[([^[\]]*)\]$/.exec(key);
    if (!bracketed) {
      if (key in out) throw invalidRequest(`Query parameter '${key}' was given more than once.`, key);
      out[key] = value;
      continue;
    }
    const [, name, sub] = bracketed as unknown as [string, string, string];
    const group = (out[name] ??= {});
    if (typeof group === "string")
      throw invalidRequest(`Query parameter '${name}' was given both alone and as '${key}'.`, key);
    if (Object.hasOwn(group, sub)) throw invalidRequest(`Query parameter '${key}' was given more than once.`, key);
    group[sub] = value;
  }
  return out;
}

// NUL and the other C0 controls, DEL, and UTF-16 surrogates that are not part of a pair (JSON's "\ud800").
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point
const UNSAFE_TEXT = /[\u0000-\u001f\u007f]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point
const NUL_OR_LONE_SURROGATE = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** Control characters spelled out, so a `param` naming a key that holds one stays readable. */
const visible = (key: string) =>
  // biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point
  key.replace(/[\u0000-\u001f\u007f\ud800-\udfff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);

const MAX_NESTING = 16;

/**
 * Refuses any string, key or value, holding a NUL or a lone surrogate, wherever it sits in a body or query
 * (no field stores them, PostgreSQL cannot, and they hide text from people reading it): 400 naming the
 * field as a dotted path (`description`, `metadata.order_id`; a bad key is named with the character
 * spelled `\u0000`). Runs before the schema, so every field of every route is covered.
 */
export function refuseUnsafeText(input: unknown, path: string[] = []): void {
  // No request nests beyond a few levels; a deeper one is refused before it can exhaust the stack.
  if (path.length > MAX_NESTING) {
    const param = path[0]!;
    throw invalidRequest(`Invalid ${param}: nested deeper than ${MAX_NESTING} levels.`, param);
  }
  const fail = (at: string[]) => {
    const param = at.join(".");
    throw invalidRequest(`Invalid ${param}: text must not contain NUL characters or unpaired surrogates.`, param);
  };
  if (typeof input === "string") {
    if (NUL_OR_LONE_SURROGATE.test(input)) fail(path);
  } else if (input && typeof input === "object") {
    for (const [key, value] of Object.entries(input)) {
      if (NUL_OR_LONE_SURROGATE.test(key)) fail([...path, visible(key)]);
      refuseUnsafeText(value, [...path, key]);
    }
  }
}

/**
 * A path parameter (an id, a chain) that no object can have: control characters (NUL included) or lone
 * surrogates. The caller answers 404 naming the parameter, as for any id that does not exist.
 */
export function isImpossiblePathParam(value: string): boolean {
  return UNSAFE_TEXT.test(value);
}

/**
 * Validates with a zod schema; the first problem becomes a 400 naming the field as a dotted path (a body's
 * `metadata.order`), or as it was written in a query string (`created[gte]`).
 */
export function validate<S extends z.ZodType>(
  schema: S,
  input: unknown,
  opts: { in?: "body" | "query" } = {},
): z.output<S> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const issue = result.error.issues[0]!;
  const path = issue.path.map(String);
  const name = (parts: string[]) =>
    opts.in === "query"
      ? parts[0] +
        parts
          .slice(1)
          .map((p) => `[${p}]`)
          .join("")
      : parts.join(".");
  if (issue.code === "unrecognized_keys") {
    const param = name([...path, issue.keys[0]!]);
    throw new ApiError("invalid_request_error", `Unknown parameter: '${param}'.`, { param });
  }
  const param = path.length ? name(path) : null;
  if (param && valueAt(input, path) === undefined)
    throw invalidRequest(`Missing required parameter: '${param}'.`, param);
  throw invalidRequest(
    param && !issue.message.includes(param) ? `Invalid ${param}: ${issue.message}` : issue.message,
    param,
  );
}

function valueAt(input: unknown, path: string[]): unknown {
  let cur: unknown = input;
  for (const key of path) {
    if (!cur || typeof cur !== "object") return undefined;
    cur = (cur as Record<string, unknown>)[key];
  }
  return cur;
}
