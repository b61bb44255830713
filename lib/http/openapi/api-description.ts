/** The prose the OpenAPI document opens with; docs/API.md has the full rules. */
export const API_DESCRIPTION = [
  "Accept and send USDT on Ethereum, BNB Smart Chain, Polygon, Tron and Solana.",
  "Authenticate with `Authorization: Bearer <key>`: a `mnt_test_sk_…` key sees the sandbox (local chains, no " +
    "real funds), a `mnt_live_sk_…` key the live chains. Amounts are USDT decimal strings with six decimals. " +
    "Lists page with `limit` (1–100) and `starting_after`. Every POST takes an `Idempotency-Key`: a retry with " +
    "the same key and body replays the first answer, with another body it is a 409.",
  "Errors share one envelope (`Error`) with a stable `type` and the `param` at fault.",
].join("\n\n");

export const WEBHOOKS_DESCRIPTION =
  "Sent to every active endpoint whose `events` filter includes the type (or is empty). Verify " +
  "`service-signature`: `v1` is the hex HMAC-SHA256, keyed with the endpoint's `whsec_…` secret, of " +
  "`<t>.<raw body>`; compare in constant time and refuse an old `t`. A failed attempt is retried after 5, " +
  "10, 20, 40 and 80 s. Deliveries are at least once and unordered: deduplicate by the event's `id`.";
