import fc from "fast-check";
import { CHAINS } from "@/lib/chains/chains";
import { type Endpoint, ENDPOINTS, endpointLabel, type IdKind, idKindsOf } from "./endpoint-catalogue";
import { hostileBodyBytes, hostileJsonText, urlSizedHostileString } from "./hostile-values";
import type { RawRequest } from "./raw-http";
import { arbitraryFor, queryArbitrary } from "./zod-arbitrary";
import { FIELD_HINTS, loopbackOnly, QUERY_HINTS } from "./field-hints";

export interface FuzzKey {
  secret: string;
  mode: "sandbox" | "live";
}

/** The run's merchants: their keys and the ids of what they own (payments, links, events, webhooks). */
export interface FuzzMerchant {
  keys: FuzzKey[];
  ids: Record<Exclude<IdKind, "chain">, string[]>;
}

export interface FuzzRequest {
  label: string;
  raw: RawRequest;
  /** A path id of another merchant: the answer must not be a 2xx. */
  foreignId: boolean;
  /** A sandbox helper that moves coins or blocks: the fuzzer keeps its handler from running (no 2xx). */
  touchesChains?: boolean;
}

const BOGUS_PREFIX: Record<IdKind, string> = {
  payment: "pay_",
  link: "plink_",
  event: "evt_",
  payout: "po_",
  webhook: "wh_",
  chain: "",
};

/** Path segments that trip decoders and routers: bad and overlong escapes, dot segments, NUL, huge. */
const hostileSegment: fc.Arbitrary<string> = fc.oneof(
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

function idArbitrary(kind: IdKind, merchants: FuzzMerchant[], self: number): fc.Arbitrary<[string, boolean]> {
  if (kind === "chain")
    return fc.oneof(
      { weight: 4, arbitrary: fc.constantFrom(...CHAINS).map((c): [string, boolean] => [c, false]) },
      { weight: 3, arbitrary: hostileSegment.map((s): [string, boolean] => [s, false]) },
    );
  const own = merchants[self]!.ids[kind];
  const foreign = merchants.filter((_, i) => i !== self).flatMap((m) => m.ids[kind]);
  const options: fc.WeightedArbitrary<[string, boolean]>[] = [
    {
      weight: 2,
      arbitrary: fc
        .string({ unit: fc.constantFrom(..."abcdefXYZ0129"), maxLength: 24 })
        .map((s) => [`${BOGUS_PREFIX[kind]}${s}`, false]),
    },
    { weight: 3, arbitrary: hostileSegment.map((s): [string, boolean] => [s, false]) },
  ];
  if (own.length)
    options.push({ weight: 5, arbitrary: fc.constantFrom(...own).map((id): [string, boolean] => [id, false]) });
  if (foreign.length)
    options.push({ weight: 2, arbitrary: fc.constantFrom(...foreign).map((id): [string, boolean] => [id, true]) });
  return fc.oneof(...options);
}

/** Whole-path twists: trailing slash, doubled slash, dot segments inserted, an escape instead of a letter. */
const pathTwist: fc.Arbitrary<(p: string) => string> = fc.oneof(
  { weight: 10, arbitrary: fc.constant((p: string) => p) },
  {
    weight: 3,
    arbitrary: fc.constantFrom(
      (p: string) => `${p}/`,
      (p: string) => p.replace("/v1/", "/v1//"),
      (p: string) => p.replace("/v1/", "/v1/./"),
      (p: string) => p.replace("/v1/", "/v1/x/../"),
      (p: string) => p.replace("/v1/", "/v1/%2e/"),
      (p: string) => p.replace(/\/([a-z])/, (_m, c: string) => `/%${c.charCodeAt(0).toString(16)}`),
      (p: string) => `${p}%00`,
      (p: string) => `${p}#frag`,
      (p: string) => `${p};x=1`,
    ),
  },
);

const METHODS = [
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

function headersArbitrary(merchant: FuzzMerchant) {
  const key = fc.constantFrom(...merchant.keys).map((k) => k.secret);
  const auth = fc.oneof(
    { weight: 12, arbitrary: key.map((k) => `Bearer ${k}`) },
    { weight: 1, arbitrary: fc.constantFrom(...GARBLED_AUTH) },
    {
      weight: 1,
      arbitrary: key.chain((k) =>
        fc.constantFrom(`Bearer  ${k}`, `Bearer ${k} `, `bearer ${k}`, `Bearer ${k.toUpperCase()}`, k),
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
    if (a !== null) headers.push(["Authorization", a]);
    if (ct !== null) headers.push(["Content-Type", ct]);
    if (idem !== null) headers.push(["Idempotency-Key", idem.replace(/[^\t\x20-\xff]/g, "?")]);
    return headers;
  });
}

function bodyArbitrary(endpoint: Endpoint): fc.Arbitrary<Buffer> {
  const objectBody = endpoint.body
    ? arbitraryFor(endpoint.body, "", FIELD_HINTS).map((v) => Buffer.from(JSON.stringify(v) ?? "null"))
    : fc.constant(Buffer.alloc(0));
  return fc.oneof(
    { weight: 10, arbitrary: objectBody },
    { weight: 1, arbitrary: hostileJsonText.map((t) => Buffer.from(t)) },
    { weight: 1, arbitrary: hostileBodyBytes },
    { weight: 1, arbitrary: fc.constant(Buffer.alloc(0)) },
  );
}

/** The request for one endpoint; `self` picks the calling merchant. */
function requestFor(endpoint: Endpoint, merchants: FuzzMerchant[], self: number): fc.Arbitrary<FuzzRequest> {
  const merchant = merchants[self]!;
  const ids = fc.tuple(...idKindsOf(endpoint).map((k) => idArbitrary(k, merchants, self)));
  const method = fc.oneof(
    { weight: 12, arbitrary: fc.constant(endpoint.method) },
    { weight: 2, arbitrary: fc.constantFrom(...METHODS) },
  );
  const query = fc.option(queryArbitrary(endpoint.query, QUERY_HINTS), {
    freq: endpoint.method === "POST" ? 8 : 1,
    nil: "",
  });
  return fc
    .tuple(ids, method, query, headersArbitrary(merchant), bodyArbitrary(endpoint), pathTwist)
    .map(([idValues, m, q, headers, body, twist]) => {
      let i = 0;
      const path = twist(endpoint.path.replace(/\{\w+\}/g, () => idValues[i++]![0]));
      const target = q ? `${path}?${q}` : path;
      const sendsBody = ["POST", "PUT", "PATCH", "post"].includes(m);
      let payload = sendsBody ? keepWebhooksOnLoopback(body) : undefined;
      if (endpoint.touchesChains && payload && reachesRealTarget(path, merchants)) payload = guardBody(payload);
      return {
        label: endpointLabel(endpoint),
        raw: { method: m, target, headers, body: payload },
        foreignId: idValues.some(([, foreign]) => foreign),
        touchesChains: endpoint.touchesChains,
      };
    });
}

/** True unless the decoded path plainly names no chain and no payment that exists. */
function reachesRealTarget(path: string, merchants: FuzzMerchant[]): boolean {
  if (path.includes("/faucet")) return true;
  const bytewise = path.replace(/%([0-9a-f]{2})/gi, (_m, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
  let decoded = bytewise;
  try {
    decoded = decodeURIComponent(path);
  } catch {
    /* bytewise only */
  }
  const forms = [path, bytewise, decoded].map((p) => p.toLowerCase());
  const payments = merchants.flatMap((m) => m.ids.payment).map((id) => id.toLowerCase());
  return [...CHAINS, ...payments].some((target) => forms.some((form) => form.includes(target)));
}

/** A webhook URL that parses with a public host is replaced: no delivery may leave the machine. */
function keepWebhooksOnLoopback(body: Buffer): Buffer {
  let value: unknown;
  try {
    value = JSON.parse(body.toString("utf8"));
  } catch {
    return body;
  }
  if (!value || typeof value !== "object" || typeof (value as { url?: unknown }).url !== "string") return body;
  const url = (value as { url: string }).url;
  const safe = loopbackOnly(url);
  if (safe === url) return body;
  try {
    return Buffer.from(JSON.stringify({ ...value, url: safe }));
  } catch {
    return Buffer.from(JSON.stringify({ url: safe })); // a value too deep to encode again
  }
}

/**
 * A body the schema refuses before the handler runs: an unknown key inserted as text (every schema is
 * strict); bodies that are not a JSON object are refused anyway, the empty one (read as {}) excepted.
 */
function guardBody(body: Buffer): Buffer {
  const text = body.toString("utf8");
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return text.trim() === "" ? Buffer.from('{"fuzz_guard":true}') : body;
  }
  if (!value || typeof value !== "object" || Array.isArray(value)) return body;
  if (Object.keys(value).length === 0) return Buffer.from('{"fuzz_guard":true}');
  return Buffer.from(text.replace(/^\s*\{/, '{"fuzz_guard":true,'));
}

/** Unknown /v1 paths, for every method: 404 in the envelope. */
function unknownPath(merchant: FuzzMerchant): fc.Arbitrary<FuzzRequest> {
  return fc
    .tuple(
      fc.constantFrom(...METHODS),
      fc.array(hostileSegment, { minLength: 0, maxLength: 3 }),
      headersArbitrary(merchant),
    )
    .map(([method, segments, headers]) => ({
      label: "* /v1/<unknown>",
      raw: { method, target: `/v1/${["nope", ...segments].join("/")}`, headers },
      foreignId: false,
    }));
}

/**
 * The run's requests: every endpoint equally often, and unknown paths, from random merchants, each from
 * a client address of its own (the public pages' per-IP budget of one address is never shared).
 */
export function apiRequestArbitrary(merchants: FuzzMerchant[]): fc.Arbitrary<FuzzRequest> {
  const ip = fc
    .tuple(fc.integer({ min: 0, max: 0xff }), fc.integer({ min: 1, max: 0xfe }))
    .map(([a, b]) => `198.19.${a}.${b}`);
  const perMerchant = merchants.map((merchant, self) =>
    fc.oneof(...ENDPOINTS.map((e) => requestFor(e, merchants, self)), unknownPath(merchant)),
  );
  return fc.tuple(fc.oneof(...perMerchant), ip).map(([req, addr]) => ({
    ...req,
    raw: { ...req.raw, headers: [["X-Forwarded-For", addr] as [string, string], ...req.raw.headers] },
  }));
}
