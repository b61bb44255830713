/**
 * What the web server makes of a request's raw path before anything decides on it (docs/CHECKOUT.md#limits-and-safety):
 * - `ok`: `pathname` is the decoded path every later decision (page limit, security headers) uses, and
 *   `forward` the raw path to hand to Next (for /v1, undecodable escapes are made literal: `%ff` → `%25ff`,
 *   so the route answers 404 for that id instead of Next failing with a 500).
 * - `redirect`: the path has dot segments (`.`, `..`, `%2e`…), empty segments (`//`, a trailing `/`) or
 *   escaped unreserved characters (`%76` for `v`), which URL parsers (Next's among them) resolve:
 *   `location` is the same path with them resolved. It is
 *   built from the path's own segments and always starts with exactly one `/`, so it never leaves the site.
 * - `unknown-api-path`: the same on a /v1 path. An API client must never be redirected (one that follows a
 *   308 re-sends its POST, body and key, to a path it did not choose), so it gets the API's 404 naming the
 *   path it meant (`suggestion`). Escaped unreserved characters alone do not count: `/v1/payments/pay%5Fa`
 *   is the same path as `/v1/payments/pay_a` (RFC 3986, 6.2.2.2) and is served as that.
 * - `refuse`: a raw backslash anywhere (parsers read it as `/`), a path that is neither origin-form nor
 *   absolute-form, or, outside /v1, a segment that does not decode to clean text (invalid or overlong escape,
 *   lone surrogate, NUL or another control character, an encoded `/` or `\`).
 *
 * An absolute-form request line (`POST http://host/v1/balances HTTP/1.1`, which a server must accept, RFC
 * 9112 3.2.2) is decided on its path, and a fragment sent in the target is dropped first.
 */
export type PathDecision =
  | { kind: "ok"; pathname: string; forward: string }
  | { kind: "redirect"; location: string }
  | { kind: "unknown-api-path"; pathname: string; suggestion: string }
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

const ABSOLUTE_FORM = /^[A-Za-z][A-Za-z0-9+.-]*:\/\/[^/?#]*/;

/** The origin-form of a request target (`/path?query`): an absolute-form target loses its scheme and authority. */
export function originForm(rawUrl: string): string {
  const absolute = ABSOLUTE_FORM.exec(rawUrl);
  if (!absolute) return rawUrl;
  const rest = rawUrl.slice(absolute[0].length);
  return rest.startsWith("/") ? rest : `/${rest}`;
}

export function decideRequestPath(requestTarget: string): PathDecision {
  // A request target has no fragment (RFC 9112 3.2); a client that sends one anyway means none, and Next
  // would drop it after this decision (leaving `/v1/payments/#x` as a trailing-slash path it redirects).
  const hash = requestTarget.indexOf("#");
  const rawUrl = originForm(hash === -1 ? requestTarget : requestTarget.slice(0, hash));
  const queryAt = rawUrl.indexOf("?");
  const rawPath = queryAt === -1 ? rawUrl : rawUrl.slice(0, queryAt);
  const query = queryAt === -1 ? "" : rawUrl.slice(queryAt);
  if (!rawPath.startsWith("/")) return { kind: "refuse", reason: "The request target must be a path." };
  if (rawPath.includes("\\")) return { kind: "refuse", reason: "The path contains a backslash." };

  const kept: { raw: string; decoded: string | null }[] = [];
  let changed = false;
  let escapesOnly = true;
  // "/" is the root path: its one empty segment is not a `//`.
  const rawSegments = rawPath === "/" ? [] : rawPath.slice(1).split("/");
  for (const spelled of rawSegments) {
    // Escaped letters, digits and `-._~` mean the characters themselves (RFC 3986's normalisation):
    // `/%761/…` is `/v1/…`: Next and every decision see one spelling.
    const raw = spelled.replace(UNRESERVED_ESCAPE, (hex) => String.fromCharCode(Number.parseInt(hex.slice(1), 16)));
    if (raw !== spelled) changed = true;
    const decoded = decodeSegment(raw);
    if (raw === "" || decoded === ".") {
      changed = true;
      escapesOnly = false;
    } else if (decoded === "..") {
      changed = true;
      escapesOnly = false;
      kept.pop();
    } else {
      kept.push({ raw, decoded });
    }
  }
  const api = isApiPath(kept.map((s) => s.decoded ?? ""));
  if (changed) {
    const location = `/${kept.map((s) => s.raw).join("/")}`;
    // Spelled as /v1 (`/v1/…`, `/%761/…`) or resolving to it: either way an API client sent it.
    const spelledApi = /^\/(?:v|%76)(?:1|%31)(?:\/|$)/.test(rawPath);
    if (api && escapesOnly) {
      // Equivalent spelling: carry on with the plain one.
    } else if (api || spelledApi) {
      return { kind: "unknown-api-path", pathname: rawPath, suggestion: location };
    } else {
      return { kind: "redirect", location: `${location}${query}` };
    }
  }

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
