/**
 * What the web server makes of a request's raw path before anything decides on it (docs/CHECKOUT.md#limits-and-safety):
 * - `ok`: `pathname` is the decoded path every later decision (page limit, security headers) uses, and
 *   `forward` the raw path to hand to Next (for /v1, undecodable escapes are made literal: `%ff` → `%25ff`,
 *   so the route answers 404 for that id instead of Next failing with a 500).
 * - `redirect`: the path has dot segments (`.`, `..`, `%2e`…), empty segments (`//`, a trailing `/`) or
 *   escaped unreserved characters (`%76` for `v`), which URL parsers (Next's among them) resolve:
 *   `location` is the same path with them resolved. It is
 *   built from the path's own segments and always starts with exactly one `/`, so it never leaves the site.
 * - `refuse`: a raw backslash anywhere (parsers read it as `/`), a path that is not origin-form, or, outside
 *   /v1, a segment that does not decode to clean text (invalid or overlong escape, lone surrogate, NUL or
 *   another control character, an encoded `/` or `\`).
 */
export type PathDecision =
  | { kind: "ok"; pathname: string; forward: string }
  | { kind: "redirect"; location: string }
  | { kind: "refuse"; reason: string };

const VALID_ESCAPES = /^(?:[^%]|%[0-9A-Fa-f]{2})*$/;
const UNRESERVED_ESCAPE = /%(?:[46][1-9A-Fa-f]|[57][0-9Aa]|3[0-9]|2[DEde]|5[Ff]|7[Ee])/g;
// C0 controls (NUL included) and DEL; lone surrogates cannot come out of decodeURIComponent.
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point
const CONTROL = /[\u0000-\u001f\u007f]/;

/** The decoded segment, or null when its escapes are invalid or do not spell valid UTF-8. */
function decodeSegment(raw: string): string | null {
  if (!VALID_ESCAPES.test(raw)) return null;
  try {
    return decodeURIComponent(raw); // throws on invalid UTF-8, overlong forms and encoded surrogates
  } catch {
    return null;
  }
}

const isApiPath = (segments: string[]) => segments[0] === "v1";

export function decideRequestPath(rawUrl: string): PathDecision {
  const queryAt = rawUrl.indexOf("?");
  const rawPath = queryAt === -1 ? rawUrl : rawUrl.slice(0, queryAt);
  const query = queryAt === -1 ? "" : rawUrl.slice(queryAt);
  if (!rawPath.startsWith("/")) return { kind: "refuse", reason: "The request target must be a path." };
  if (rawPath.includes("\\")) return { kind: "refuse", reason: "The path contains a backslash." };

  const kept: { raw: string; decoded: string | null }[] = [];
  let changed = false;
  // "/" is the root path: its one empty segment is not a `//`.
  const rawSegments = rawPath === "/" ? [] : rawPath.slice(1).split("/");
  for (const spelled of rawSegments) {
    // Escaped letters, digits and `-._~` mean the characters themselves (RFC 3986's normalisation):
    // `/%761/…` is `/v1/…` and is redirected there, so Next and every decision see one spelling.
    const raw = spelled.replace(UNRESERVED_ESCAPE, (hex) => String.fromCharCode(Number.parseInt(hex.slice(1), 16)));
    if (raw !== spelled) changed = true;
    const decoded = decodeSegment(raw);
    if (raw === "" || decoded === ".") {
      changed = true;
    } else if (decoded === "..") {
      changed = true;
      kept.pop();
    } else {
      kept.push({ raw, decoded });
    }
  }
  if (changed) return { kind: "redirect", location: `/${kept.map((s) => s.raw).join("/")}${query}` };

  const api = isApiPath(kept.map((s) => s.decoded ?? ""));
  const decodedSegments: string[] = [];
  const forwardSegments: string[] = [];
  for (const { raw, decoded } of kept) {
    if (api) {
      // The route decides about the id (404 naming it); Next only needs escapes it can decode.
      forwardSegments.push(decoded === null ? raw.replaceAll("%", "%25") : raw);
      decodedSegments.push(decoded ?? raw);
      continue;
    }
    if (decoded === null) return { kind: "refuse", reason: "The path contains an invalid percent-escape." };
    if (CONTROL.test(decoded) || decoded.includes("/") || decoded.includes("\\"))
      return { kind: "refuse", reason: "The path contains an encoded control character, slash or backslash." };
    forwardSegments.push(raw);
    decodedSegments.push(decoded);
  }
  return {
    kind: "ok",
    pathname: `/${decodedSegments.join("/")}`,
    forward: `/${forwardSegments.join("/")}${query}`,
  };
}
