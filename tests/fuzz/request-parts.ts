import fc from "fast-check";
import type { FuzzKey, FuzzMerchant } from "./api-requests";
import { urlSizedHostileString } from "./hostile-values";

// The pieces of a request besides its body: path segments, path twists, methods and headers.

/** Path segments that trip decoders and routers: bad and overlong escapes, dot segments, NUL, huge. */
export const hostileSegment: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(
    "%",
    "%%",
    "%2",
    "%ff",
    "%zz",
    "%00",
    "%u0041",
    "%c0%ae",
    "%c0%ae%c0%ae",
    "%e0%80%ae",
    "%ed%a0%80",
    "%f4%90%80%80",
    "%e2%80%ae",
    "%2e",
    "%2e%2e",
    "%2E%2E",
    ".",
    "..",
    ".%2e",
    "%2f",
    "%2F..%2F",
    "%5c",
    "%25",
    "%0d%0a",
    "%20",
    "a".repeat(5000),
    "9".repeat(400),
  ),
  urlSizedHostileString.map((s) =>
    s.replace(/[^A-Za-z0-9]/g, (c) => `%${(c.charCodeAt(0) & 0xff).toString(16).padStart(2, "0")}`),
  ),
);

/**
 * Whole-path twists: trailing slash, doubled slash, dot segments inserted, an escape instead of a letter.
 * `plain`: the path is left as the route spells it.
 */
export const pathTwist: fc.Arbitrary<{ apply: (p: string) => string; plain: boolean }> = fc.oneof(
  { weight: 10, arbitrary: fc.constant({ apply: (p: string) => p, plain: true }) },
  {
    weight: 3,
    arbitrary: fc
      .constantFrom(
        (p: string) => `${p}/`,
        (p: string) => p.replace("/v1/", "/v1//"),
        (p: string) => p.replace("/v1/", "/v1/./"),
        (p: string) => p.replace("/v1/", "/v1/x/../"),
        (p: string) => p.replace("/v1/", "/v1/%2e/"),
        (p: string) => p.replace(/\/([a-z])/, (_m, c: string) => `/%${c.charCodeAt(0).toString(16)}`),
        (p: string) => `${p}%00`,
        (p: string) => `${p}#frag`,
        (p: string) => `${p};x=1`,
      )
      .map((apply) => ({ apply, plain: false })),
  },
);

export const METHODS = [
  "GET",
  "POST",
  "PUT",
  "PATCH",
  "DELETE",
  "HEAD",
  "OPTIONS",
  "TRACE",
  "PROPFIND",
  "PURGE",
  "get",
  "post",
  "Patch",
];

const GARBLED_AUTH = [
  null,
  "",
  "Bearer",
  "Bearer ",
  "bearer sk_test_x",
  "Basic dXNlcjpwYXNz",
  "Bearer sk_test_",
  "Bearer sk_live_0000000000000000000000000000000000",
  `Bearer ${"a".repeat(5000)}`,
  "Bearer sk_test_\xff\xfe",
  "Token abc",
];

const CONTENT_TYPES = [
  null,
  "text/plain",
  "application/json; charset=latin1",
  "application/jsonx",
  "APPLICATION/JSON",
  "application/x-www-form-urlencoded",
  "multipart/form-data; boundary=x",
  "application/json;",
  "application/vnd.api+json",
];

const IDEMPOTENCY_KEYS = ["", " ", "a".repeat(255), "a".repeat(256), "a".repeat(300), "\xe9t\xe9", "k\tk", "😀", "%00"];

export interface FuzzHeaders {
  headers: [string, string][];
  /** The key the Authorization header carries in some spelling, or null when it carries none. */
  key: FuzzKey | null;
  /** Every header as a well-behaved client sends it (`Bearer <key>`, JSON, no or a UUID Idempotency-Key). */
  plain: boolean;
}

export function headersArbitrary(merchant: FuzzMerchant): fc.Arbitrary<FuzzHeaders> {
  const key = fc.constantFrom(...merchant.keys);
  const auth = fc.oneof(
    { weight: 12, arbitrary: key.map((k) => ({ value: `Bearer ${k.secret}`, key: k, plain: true })) },
    { weight: 1, arbitrary: fc.constantFrom(...GARBLED_AUTH).map((value) => ({ value, key: null, plain: false })) },
    {
      weight: 1,
      arbitrary: key.chain((k) =>
        fc
          .constantFrom(
            `Bearer  ${k.secret}`,
            `Bearer ${k.secret} `,
            `bearer ${k.secret}`,
            `Bearer ${k.secret.toUpperCase()}`,
            k.secret,
          )
          .map((value) => ({ value, key: k, plain: false })),
      ),
    },
  );
  const contentType = fc.oneof(
    { weight: 10, arbitrary: fc.constant("application/json") },
    { weight: 2, arbitrary: fc.constantFrom(...CONTENT_TYPES) },
  );
  const idempotency = fc.oneof(
    { weight: 6, arbitrary: fc.constant(null) },
    { weight: 2, arbitrary: fc.uuid() },
    { weight: 2, arbitrary: fc.constantFrom(...IDEMPOTENCY_KEYS) },
  );
  return fc.tuple(auth, contentType, idempotency).map(([a, ct, idem]) => {
    const headers: [string, string][] = [];
    if (a.value !== null) headers.push(["Authorization", a.value]);
    if (ct !== null) headers.push(["Content-Type", ct]);
    if (idem !== null) headers.push(["Idempotency-Key", idem.replace(/[^\t\x20-\xff]/g, "?")]);
    const plainIdempotency = idem === null || /^[0-9a-f-]{36}$/.test(idem);
    return { headers, key: a.key, plain: a.plain && ct === "application/json" && plainIdempotency };
  });
}
