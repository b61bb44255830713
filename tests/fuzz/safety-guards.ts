import { CHAINS } from "@/lib/chains/chains";
import type { FuzzMerchant } from "./api-requests";
import { loopbackOnly } from "./field-hints";

/**
 * What keeps the fuzzer from harming the run it shares: no chain-moving sandbox helper runs on a real
 * target, and no webhook URL points off the machine.
 */

/** True unless the decoded path plainly names no chain, no payment and no deposit address that exists. */
export function reachesRealTarget(path: string, merchants: FuzzMerchant[]): boolean {
  if (path.includes("/faucet")) return true;
  const bytewise = path.replace(/%([0-9a-f]{2})/gi, (_m, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
  let decoded = bytewise;
  try {
    decoded = decodeURIComponent(path);
  } catch {
    /* bytewise only */
  }
  const forms = [path, bytewise, decoded].map((p) => p.toLowerCase());
  const targets = merchants.flatMap((m) => [...m.ids.payment, ...m.ids.deposit_address]).map((id) => id.toLowerCase());
  return [...CHAINS, ...targets].some((target) => forms.some((form) => form.includes(target)));
}

/** A webhook URL that parses with a public host is replaced: no delivery may leave the machine. */
export function keepWebhooksOnLoopback(body: Buffer): Buffer {
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
export function guardBody(body: Buffer): Buffer {
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
