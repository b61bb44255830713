import fc from "fast-check";

/**
 * Ways of spelling a public page's path that a router may still resolve to the page: dot segments
 * (plain and escaped), doubled and trailing slashes, escaped letters and slashes, case, absolute form.
 * Each takes the canonical path (e.g. /checkout/pay_123) and returns the request target.
 */
export const PATH_VARIANTS: Record<string, (path: string) => string> = {
  canonical: (p) => p,
  trailing_slash: (p) => `${p}/`,
  leading_double_slash: (p) => `/${p}`,
  inner_double_slash: (p) => p.replace(/^(\/[^/]+)\//, "$1//"),
  dot_prefix: (p) => `/.${p}`,
  dot_inside: (p) => p.replace(/^(\/[^/]+)\//, "$1/./"),
  dotdot_prefix: (p) => `/x/..${p}`,
  dotdot_from_v1: (p) => `/v1/..${p}`,
  dotdot_from_next: (p) => `/_next/..${p}`,
  encoded_dot_prefix: (p) => `/%2e${p}`,
  encoded_dotdot_prefix: (p) => `/x/%2e%2e${p}`,
  encoded_dotdot_upper: (p) => `/x/%2E%2E${p}`,
  half_encoded_dotdot: (p) => `/x/.%2e${p}`,
  encoded_slash_after_prefix: (p) => p.replace(/^(\/[^/]+)\//, "$1%2f"),
  encoded_slash_upper: (p) => p.replace(/^(\/[^/]+)\//, "$1%2F"),
  encoded_first_letter: (p) => p.replace(/^\/(\w)/, (_m, c: string) => `/%${c.charCodeAt(0).toString(16)}`),
  encoded_first_letter_upper: (p) =>
    p.replace(/^\/(\w)/, (_m, c: string) => `/%${c.charCodeAt(0).toString(16).toUpperCase()}`),
  upper_case_prefix: (p) => p.replace(/^\/(\w+)/, (_m, w: string) => `/${w.toUpperCase()}`),
  capitalised_prefix: (p) => p.replace(/^\/(\w)/, (_m, c: string) => `/${c.toUpperCase()}`),
  backslash: (p) => p.replace(/^(\/[^/]+)\//, "$1\\"),
  encoded_backslash: (p) => p.replace(/^(\/[^/]+)\//, "$1%5c"),
  query: (p) => `${p}?x=1`,
  empty_query: (p) => `${p}?`,
  matrix_param: (p) => p.replace(/^(\/[^/]+)\//, "$1;x=1/"),
  absolute_form: (p) => `http://localhost${p}`,
  overlong_dot: (p) => `/x/%c0%ae%c0%ae${p}`,
  encoded_id_letter: (p) =>
    p.replace(/\/(\w)([^/]*)$/, (_m, c: string, rest: string) => `/%${c.charCodeAt(0).toString(16)}${rest}`),
  triple_slash: (p) => `//${p}`,
};

/** Random compositions of the single variants, for the fuzzer to find combinations nobody listed. */
export function composedVariantArbitrary(): fc.Arbitrary<{ name: string; apply: (p: string) => string }> {
  const names = Object.keys(PATH_VARIANTS).filter((n) => n !== "absolute_form");
  return fc.array(fc.constantFrom(...names), { minLength: 2, maxLength: 3 }).map((chosen) => ({
    name: chosen.join("+"),
    apply: (p: string) => chosen.reduce((acc, n) => PATH_VARIANTS[n]!(acc), p),
  }));
}

/**
 * Other requests to a page: [method, content type, Next-Action (the server action id the pages' own
 * scripts send), body]. A POST with a form content type is what Next reads as a server action.
 */
export const OTHER_PAGE_REQUESTS: [string, string, string, string][] = [
  ["POST", "multipart/form-data; boundary=x", "", '{"a":1}'],
  ["POST", "application/x-www-form-urlencoded", "", "a=%ff&b"],
  ["POST", "text/plain;charset=UTF-8", "", '["$ACTION_ID_x"]'],
  ["POST", "text/plain;charset=UTF-8", "0".repeat(40), "[]"],
  ["POST", "text/plain;charset=UTF-8", "%ff\u0000", "[{"],
  ["POST", "multipart/form-data; boundary=x", "0".repeat(42), "--x\r\nnot a part"],
  ["PUT", "application/json", "", "{}"],
  ["TRACE", "", "", ""],
];
