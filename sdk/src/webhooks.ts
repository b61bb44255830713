// Verifying deliveries (docs/API.md#webhook-delivery): `service-signature: t=<unix>,v1=<hex>`, where v1 is
// HMAC-SHA256 keyed with the endpoint's `whsec_…` secret over `<t>.<raw body>`. Node only (node:crypto).
import { createHmac, timingSafeEqual } from "node:crypto";
import { WebhookSignatureError } from "./errors.js";
import type { Event } from "./types.js";

/** The header that carries the signature (lowercase, as Node's `req.headers` has it). */
export const SIGNATURE_HEADER = "service-signature";
export const DEFAULT_TOLERANCE_SECONDS = 300;

/**
 * Checks a delivery and returns its event. `rawBody` must be the exact bytes received (a string or a
 * Buffer), not JSON parsed and serialized again. Throws `WebhookSignatureError` when the header is missing
 * or malformed, no `v1` matches (wrong secret, altered body) or `t` is more than `toleranceSeconds` from now.
 */
export function constructEvent(
  rawBody: string | Uint8Array,
  header: string | string[] | null | undefined,
  secret: string,
  toleranceSeconds = DEFAULT_TOLERANCE_SECONDS,
): Event {
  if (typeof rawBody !== "string" && !(rawBody instanceof Uint8Array))
    throw new TypeError("constructEvent needs the raw body as received (a string or a Buffer), not a parsed object.");
  const { timestamp, signatures } = parseHeader(header);
  const expected = hmac(secret, timestamp, rawBody);
  const matches = signatures.some((hex) => {
    const given = Buffer.from(hex, "hex");
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
  if (!matches)
    throw new WebhookSignatureError(
      "no_matching_signature",
      "No v1 signature matches the body: check the endpoint's secret, and pass the raw body exactly as received.",
    );
  const age = Math.abs(Date.now() / 1000 - timestamp);
  if (age > toleranceSeconds)
    throw new WebhookSignatureError(
      "timestamp_outside_tolerance",
      `The signature's timestamp is ${Math.round(age)} s from now, ` +
        `more than the ${toleranceSeconds} s allowed (a replayed delivery?).`,
    );
  const text = typeof rawBody === "string" ? rawBody : new TextDecoder().decode(rawBody);
  return JSON.parse(text) as Event;
}

/** A valid `service-signature` value for a body, to test your own receiver. */
export function signatureHeader(
  rawBody: string | Uint8Array,
  secret: string,
  timestamp = Math.floor(Date.now() / 1000),
) {
  return `t=${timestamp},v1=${hmac(secret, timestamp, rawBody).toString("hex")}`;
}

const hmac = (secret: string, timestamp: number, rawBody: string | Uint8Array) =>
  createHmac("sha256", secret).update(`${timestamp}.`).update(rawBody).digest();

/** `t=<digits>` once, and one or more `v1=<64 hex>`; other schemes are ignored. */
function parseHeader(header: string | string[] | null | undefined): { timestamp: number; signatures: string[] } {
  const value = Array.isArray(header) ? header.join(",") : header;
  if (!value) throw new WebhookSignatureError("missing_header", `No ${SIGNATURE_HEADER} header.`);
  const timestamps: string[] = [];
  const signatures: string[] = [];
  for (const part of value.split(",")) {
    const [key, item] = part.trim().split("=", 2);
    if (key === "t" && item) timestamps.push(item);
    if (key === "v1" && item && /^[0-9a-f]{64}$/i.test(item)) signatures.push(item);
  }
  const [t] = timestamps;
  if (timestamps.length !== 1 || !t || !/^\d{1,12}$/.test(t) || signatures.length === 0)
    throw new WebhookSignatureError(
      "malformed_header",
      `Malformed ${SIGNATURE_HEADER} header: expected "t=<unix seconds>,v1=<hex HMAC-SHA256>".`,
    );
  return { timestamp: Number(t), signatures };
}

/** `webhooks.constructEvent(…)`, as on `client.webhooks`. */
export const webhooks = { constructEvent, signatureHeader, SIGNATURE_HEADER } as const;
