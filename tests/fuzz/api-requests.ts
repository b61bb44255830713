import fc from "fast-check";
import { CHAINS } from "@/lib/chains/chains";
import { headersArbitrary, hostileSegment, METHODS, pathTwist } from "./request-parts";
import { guardBody, keepWebhooksOnLoopback, reachesRealTarget } from "./safety-guards";
import { type Endpoint, ENDPOINTS, endpointLabel, type IdKind, idKindsOf } from "./endpoint-catalogue";
import { hostileBodyBytes, hostileJsonText } from "./hostile-values";
import type { RawRequest } from "./raw-http";
import { DEFAULT_SCOPES, hasScope, type Scope } from "@/lib/identity/api-keys/scopes";
import { arbitraryFor, queryArbitrary } from "./zod-arbitrary";
import { FIELD_HINTS, QUERY_HINTS } from "./field-hints";

export interface FuzzKey {
  secret: string;
  mode: "sandbox" | "live";
  scopes: readonly Scope[];
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
  /** The endpoint's method with a key lacking this scope: the answer must not be a 2xx. */
  missingScope?: Scope;
  /**
   * Asked as a well-behaved client asks (the endpoint's method and path, plain headers with a full sandbox
   * key, the caller's own ids, a body drawn from the schema): most of these must succeed.
   */
  wellFormed?: boolean;
}

const BOGUS_PREFIX: Record<IdKind, string> = {
  payment: "pay_",
  link: "plink_",
  event: "evt_",
  payout: "po_",
  refund: "re_",
  customer: "cus_",
  deposit_address: "da_",
  deposit: "dep_",
  webhook: "wh_",
  chain: "",
};

/** An id for a path: [the id, another merchant's, the caller's own (or a real chain)]. */
type IdPick = [id: string, foreign: boolean, own: boolean];

function idArbitrary(kind: IdKind, merchants: FuzzMerchant[], self: number): fc.Arbitrary<IdPick> {
  if (kind === "chain")
    return fc.oneof(
      { weight: 4, arbitrary: fc.constantFrom(...CHAINS).map((c): IdPick => [c, false, true]) },
      { weight: 3, arbitrary: hostileSegment.map((s): IdPick => [s, false, false]) },
    );
  const own = merchants[self]!.ids[kind];
  const foreign = merchants.filter((_, i) => i !== self).flatMap((m) => m.ids[kind]);
  const options: fc.WeightedArbitrary<IdPick>[] = [
    {
      weight: 2,
      arbitrary: fc
        .string({ unit: fc.constantFrom(..."abcdefXYZ0129"), maxLength: 24 })
        .map((s): IdPick => [`${BOGUS_PREFIX[kind]}${s}`, false, false]),
    },
    { weight: 3, arbitrary: hostileSegment.map((s): IdPick => [s, false, false]) },
  ];
  if (own.length)
    options.push({ weight: 5, arbitrary: fc.constantFrom(...own).map((id): IdPick => [id, false, true]) });
  if (foreign.length)
    options.push({ weight: 2, arbitrary: fc.constantFrom(...foreign).map((id): IdPick => [id, true, false]) });
  return fc.oneof(...options);
}

/** A body, and whether it was drawn from the endpoint's schema (rather than hostile text or bytes). */
function bodyArbitrary(endpoint: Endpoint): fc.Arbitrary<{ bytes: Buffer; fromSchema: boolean }> {
  const objectBody = endpoint.body
    ? arbitraryFor(endpoint.body, "", FIELD_HINTS).map((v) => Buffer.from(JSON.stringify(v) ?? "null"))
    : fc.constant(Buffer.alloc(0));
  const other = (bytes: fc.Arbitrary<Buffer>) => bytes.map((b) => ({ bytes: b, fromSchema: false }));
  return fc.oneof(
    { weight: 10, arbitrary: objectBody.map((b) => ({ bytes: b, fromSchema: true })) },
    { weight: 1, arbitrary: other(hostileJsonText.map((t) => Buffer.from(t))) },
    { weight: 1, arbitrary: other(hostileBodyBytes) },
    { weight: 1, arbitrary: other(fc.constant(Buffer.alloc(0))) },
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
      const path = twist.apply(endpoint.path.replace(/\{\w+\}/g, () => idValues[i++]![0]));
      const target = q ? `${path}?${q}` : path;
      const sendsBody = ["POST", "PUT", "PATCH", "post"].includes(m);
      let payload = sendsBody ? keepWebhooksOnLoopback(body.bytes) : undefined;
      if (endpoint.touchesChains && payload && reachesRealTarget(path, merchants)) payload = guardBody(payload);
      const asRouted = m === endpoint.method;
      const key = headers.key;
      const missingScope = asRouted && key ? endpoint.scopes.find((s) => !hasScope(key.scopes, s)) : undefined;
      const fullKey = key?.mode === "sandbox" && key.scopes.length >= DEFAULT_SCOPES.length;
      return {
        label: endpointLabel(endpoint),
        raw: { method: m, target, headers: headers.headers, body: payload },
        foreignId: idValues.some(([, foreign]) => foreign),
        touchesChains: endpoint.touchesChains,
        missingScope,
        wellFormed:
          asRouted &&
          headers.plain &&
          fullKey &&
          twist.plain &&
          idValues.every(([, , own]) => own) &&
          (endpoint.method !== "POST" || body.fromSchema) &&
          !endpoint.touchesChains,
      };
    });
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
      raw: { method, target: `/v1/${["nope", ...segments].join("/")}`, headers: headers.headers },
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
