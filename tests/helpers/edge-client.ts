import { randomBytes } from "node:crypto";
import http from "node:http";
import path from "node:path";
import { inject } from "vitest";
import { spawnWebServer, type SpawnedWebServer } from "@/scripts/lib/spawn-web";

/**
 * A web instance of its own that trusts X-Forwarded-For (TRUST_PROXY=true, as behind a proxy), so a test
 * can act as any client address, IPv6 included, without spending the run's shared per-IP budgets.
 */
export function spawnProxiedWebServer(): Promise<SpawnedWebServer> {
  return spawnWebServer(path.resolve(import.meta.dirname, "../.."), {
    DATABASE_URL: inject("databaseUrl"),
    MASTER_KEY: inject("masterKey"),
    REDIS_KEY_PREFIX: inject("redisKeyPrefix"),
    DATA_DIR: path.resolve(import.meta.dirname, "../../.data/test"),
    LOG_LEVEL: "warn",
    TRUST_PROXY: "true",
  });
}

export function freshIpv4(): string {
  const [a, b, c] = randomBytes(3);
  return `10.${a}.${b}.${Math.max(1, c! % 255)}`;
}

/** A /64 nobody else in the run uses, as its prefix ("2001:db8:x:y:"): append the interface part. */
export function freshIpv6Prefix(): string {
  const [a, b, c, d] = randomBytes(4);
  return `2001:db8:${((a! << 8) | b!).toString(16)}:${((c! << 8) | d!).toString(16)}:`;
}

export interface RawReply {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
}

/**
 * A request with the path sent exactly as written (fetch would resolve `..` and `%2e` itself, which is
 * the very thing under test), optionally as client `ip`.
 */
export function rawRequest(base: string, rawPath: string, opts: { ip?: string; method?: string; key?: string } = {}) {
  const url = new URL(base);
  return new Promise<RawReply>((resolve, reject) => {
    const req = http.request(
      {
        host: url.hostname,
        port: url.port,
        method: opts.method ?? "GET",
        path: rawPath,
        headers: {
          ...(opts.ip ? { "x-forwarded-for": opts.ip } : {}),
          ...(opts.key ? { authorization: `Bearer ${opts.key}` } : {}),
        },
      },
      (res) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (chunk) => (text += chunk));
        res.on("end", () => resolve({ status: res.statusCode!, headers: res.headers, text }));
      },
    );
    req.on("error", reject);
    req.end();
  });
}

/** Opens a live-status stream and resolves once its headers arrived; `close()` hangs up abruptly. */
export function openStream(base: string, rawPath: string, ip: string, method = "GET") {
  const url = new URL(base);
  return new Promise<{ status: number; headers: http.IncomingHttpHeaders; close(): void }>((resolve, reject) => {
    const req = http.request({
      host: url.hostname,
      port: url.port,
      method,
      path: rawPath,
      headers: { "x-forwarded-for": ip },
    });
    req.end();
    req.on("response", (res) => {
      res.resume();
      resolve({ status: res.statusCode!, headers: res.headers, close: () => req.destroy() });
    });
    req.on("error", reject);
  });
}
