import { randomBytes } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { sandboxChainConfigs } from "@/lib/chains/chain-config";
import { config } from "@/lib/platform/config/env";
import { getDb } from "@/lib/platform/db/client";

const origin = (url: string) => {
  try {
    return new URL(url).origin;
  } catch {
    return null;
  }
};

/**
 * Origins a payer's browser may call from the hosted pages besides our own: the sandbox chains' RPCs (a
 * wallet or the test wallet on a sandbox payment) and Solana's public RPC (its wallet adapter needs a
 * recent blockhash). Live EVM and Tron wallets use their own nodes.
 */
async function walletOrigins(): Promise<string[]> {
  const sandbox = await sandboxChainConfigs(getDb()).catch(() => []);
  const urls = [...sandbox.map((c) => c.rpcUrl), config().solanaPublicRpcUrl];
  return [...new Set(urls.map(origin).filter((o): o is string => o !== null))];
}

/** The merchant dashboard's pages and its sign-in endpoints. */
export function isDashboardPath(pathname: string): boolean {
  return ["/dashboard", "/api/auth"].some((area) => pathname === area || pathname.startsWith(`${area}/`));
}

/** The policy of the hosted pages: scripts only with this response's nonce (and what they load). */
export function contentSecurityPolicy(nonce: string, connect: string[]): string {
  return [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'`,
    // Style attributes (progress bar width) and wallet libraries' injected styles; no script can hide there.
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self'",
    `connect-src 'self' ${connect.join(" ")}`.trim(),
    "frame-ancestors 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "object-src 'none'",
  ].join("; ");
}

/**
 * Security headers of the public pages (/checkout, /pay and their data endpoints). The nonce is set on
 * the request too (overwriting anything the client sent), which is where Next reads it to mark its own
 * scripts.
 */
export async function applyPageSecurity(req: IncomingMessage, res: ServerResponse): Promise<void> {
  const nonce = randomBytes(16).toString("base64");
  const csp = contentSecurityPolicy(nonce, await walletOrigins());
  req.headers["content-security-policy"] = csp;
  delete req.headers["content-security-policy-report-only"];
  res.setHeader("Content-Security-Policy", csp);
  setStaticPageHeaders(res);
}

/**
 * The headers every public page response carries, whatever its content (the limit's 429 page too): no
 * framing, no sniffing, no caching, and — since the payment id or link token is in the URL — no Referer.
 */
export function setStaticPageHeaders(res: ServerResponse): void {
  res.setHeader("X-Frame-Options", "DENY");
  res.setHeader("X-Content-Type-Options", "nosniff");
  res.setHeader("Referrer-Policy", "no-referrer");
  res.setHeader("Permissions-Policy", "camera=(), microphone=(), geolocation=(), payment=()");
  res.setHeader("Cross-Origin-Opener-Policy", "same-origin");
  res.setHeader("Cache-Control", "no-store");
}
