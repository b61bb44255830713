/**
 * What the logger removes from every line, whatever the caller passed: values of keys named like
 * secrets, and the credentials inside URLs (live RPC URLs carry providers' API keys: in the user-info,
 * in a query parameter, or as a path segment such as Alchemy's /v2/<key> or Infura's /v3/<key>).
 */
const SECRET_KEY = /secret|password|authorization|api_?key|token|seed|mnemonic|master_?key/i;
const URL_IN_TEXT = /\b[a-z][a-z0-9+.-]*:\/\/[^\s"'<>`]+/gi;
// A path segment that looks like a credential: long, mixing letters and digits.
const KEY_LIKE_SEGMENT = /^(?=.*[0-9])(?=.*[A-Za-z])[A-Za-z0-9_-]{16,}$/;
// The service's own ids (pay_…, evt_…, whd_…) are identifiers, not credentials: kept for operators.
const OWN_ID = /^[a-z]{2,7}(_[a-z]{2,3})?_[0-9A-Za-z]{16,}$/;
const REDACTED = "[redacted]";

function redactUrl(url: string): string {
  const scheme = url.indexOf("://") + 3;
  let rest = url.slice(scheme);
  const authorityEnd = rest.search(/[/?#]/);
  let authority = authorityEnd === -1 ? rest : rest.slice(0, authorityEnd);
  rest = authorityEnd === -1 ? "" : rest.slice(authorityEnd);
  const at = authority.lastIndexOf("@");
  if (at !== -1) authority = `${REDACTED}@${authority.slice(at + 1)}`;
  const [beforeFragment = "", fragment] = rest.split("#", 2);
  const [path = "", search] = beforeFragment.split("?", 2);
  const safePath = path
    .split("/")
    .map((segment) => (KEY_LIKE_SEGMENT.test(segment) && !OWN_ID.test(segment) ? REDACTED : segment))
    .join("/");
  const safeSearch =
    search === undefined
      ? ""
      : `?${search
          .split("&")
          .map((pair) => (pair.includes("=") ? `${pair.slice(0, pair.indexOf("="))}=${REDACTED}` : pair))
          .join("&")}`;
  return `${url.slice(0, scheme)}${authority}${safePath}${safeSearch}${fragment === undefined ? "" : "#…"}`;
}

/** `text` with every URL in it stripped of credentials. */
export function redactText(text: string): string {
  return text.replace(URL_IN_TEXT, redactUrl);
}

/** A log field's value made safe: secrets by key name, URLs in strings, errors by message, recursively. */
export function redactValue(key: string, value: unknown, depth = 0): unknown {
  if (SECRET_KEY.test(key)) return REDACTED;
  if (typeof value === "string") return redactText(value);
  if (value instanceof Error) return redactText(value.message);
  if (value === null || typeof value !== "object" || depth > 4) return value;
  if (Array.isArray(value)) return value.map((v) => redactValue("", v, depth + 1));
  if (value instanceof Date) return value;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, redactValue(k, v, depth + 1)]));
}
