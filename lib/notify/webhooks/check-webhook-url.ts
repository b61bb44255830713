import dns from "node:dns/promises";
import net from "node:net";
import { type AppConfig, config } from "@/lib/platform/config/env";
import type { Mode } from "@/lib/kernel/mode";
import { isPublicAddress } from "./public-address";

export type Resolver = (hostname: string) => Promise<string[]>;

/** A host name that does not resolve within this long is refused like one that does not resolve. */
export const DNS_TIMEOUT_MS = 5_000;

/**
 * The system resolver (hosts file included), bounded: getaddrinfo has no timeout of its own, so a dead DNS
 * server would otherwise hold a request (or a delivery) for as long as the OS retries.
 */
export const systemResolver: Resolver = (hostname) => {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`DNS lookup of ${hostname} timed out`)), DNS_TIMEOUT_MS);
  });
  const lookup = dns.lookup(hostname, { all: true, verbatim: true }).then((all) => all.map((a) => a.address));
  return Promise.race([lookup, timeout]).finally(() => clearTimeout(timer));
};

/** The documented sandbox switch: sandbox endpoints may use http and private/loopback hosts. Live never. */
export function privateUrlsAllowed(mode: Mode, cfg: AppConfig = config()): boolean {
  return mode === "sandbox" && cfg.webhooksAllowPrivateUrls;
}

export interface CheckedUrl {
  url: URL;
  /** The addresses the host resolved to, all of them allowed: delivery connects to one of these. */
  addresses: string[];
}

/**
 * Why a webhook URL is refused (a message for `param: "url"`), or the URL with its vetted addresses.
 * The WHATWG parser has already normalized numeric tricks (decimal, octal, hex IPv4) to dotted form, so
 * the address checks see the real target. Used at endpoint creation and again at every delivery.
 */
export async function checkWebhookUrl(
  raw: string,
  opts: { allowPrivate: boolean; resolve?: Resolver },
): Promise<{ ok: true; value: CheckedUrl } | { ok: false; message: string }> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { ok: false, message: "url must be an absolute URL, for example https://example.com/webhooks" };
  }
  if (url.protocol !== "https:" && !(opts.allowPrivate && url.protocol === "http:"))
    return { ok: false, message: "url must use https" };
  if (url.username || url.password) return { ok: false, message: "url must not contain credentials" };
  const host = url.hostname.replace(/^\[|\]$/g, "").toLowerCase();
  if (
    !opts.allowPrivate &&
    (host === "localhost" || host.endsWith(".localhost") || host.endsWith(".internal") || host.endsWith(".local"))
  ) {
    return { ok: false, message: `url host '${host}' is a local name; webhook URLs must be public` };
  }
  let addresses: string[];
  if (net.isIP(host)) {
    addresses = [host];
  } else {
    try {
      addresses = await (opts.resolve ?? systemResolver)(host);
    } catch (err) {
      const timedOut = err instanceof Error && err.message.endsWith("timed out");
      return { ok: false, message: `url host '${host}' ${timedOut ? "did not resolve in time" : "does not resolve"}` };
    }
    if (addresses.length === 0) return { ok: false, message: `url host '${host}' does not resolve` };
  }
  if (!opts.allowPrivate) {
    const refused = addresses.find((a) => !isPublicAddress(a));
    if (refused)
      return { ok: false, message: `url host '${host}' resolves to ${refused}, which is not a public address` };
  }
  return { ok: true, value: { url, addresses } };
}
