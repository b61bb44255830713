import { createHmac, timingSafeEqual } from "node:crypto";
import http from "node:http";

export interface Received {
  path: string;
  headers: http.IncomingHttpHeaders;
  body: string;
  at: number;
}

/** A real HTTP receiver on loopback that records every request and answers per path as told. */
export async function startReceiver() {
  const received: Received[] = [];
  const plans = new Map<string, number[]>(); // path → statuses to answer in order, then 200
  const redirects = new Map<string, string>();
  const hangs = new Map<string, number>(); // path → how many requests to leave unanswered
  const drops = new Map<string, "reused" | "always">(); // path → connections closed on a request, unanswered
  const served = new WeakSet<object>(); // connections that carried an answered request
  let connections = 0;
  const server = http.createServer((req, res) => {
    const drop = drops.get(req.url ?? "/");
    if (drop === "always" || (drop === "reused" && served.has(req.socket))) {
      req.socket.destroy(); // as a server closing a kept connection does: the request is never read
      return;
    }
    res.on("finish", () => served.add(req.socket));
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const path = req.url ?? "/";
      received.push({ path, headers: req.headers, body: Buffer.concat(chunks).toString("utf8"), at: Date.now() });
      if ((hangs.get(path) ?? 0) > 0) {
        hangs.set(path, hangs.get(path)! - 1);
        return; // never answer
      }
      if (redirects.has(path)) {
        res.writeHead(302, { Location: redirects.get(path)! }).end();
        return;
      }
      const plan = plans.get(path) ?? [];
      const status = plan.shift() ?? 200;
      res.writeHead(status, { "Content-Type": "text/plain" }).end(status === 200 ? "ok" : "nope");
    });
  });
  server.on("connection", () => connections++);
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
  const port = (server.address() as { port: number }).port;
  return {
    url: (path: string) => `http://127.0.0.1:${port}${path}`,
    port,
    received,
    at: (path: string) => received.filter((r) => r.path === path),
    failFirst: (path: string, statuses: number[]) => plans.set(path, [...statuses]),
    redirect: (path: string, to: string) => redirects.set(path, to),
    hangFirst: (path: string, count: number) => hangs.set(path, count),
    /** Closes the connection of every request to `path` ("always"), or of those on a connection used before. */
    drop: (path: string, which: "reused" | "always") => drops.set(path, which),
    /** TCP connections accepted so far. */
    connections: () => connections,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

/**
 * The receiver's side of the signature scheme (docs/API.md#webhook-delivery),
 * written independently of the service's signer.
 */
export function verifySignature(header: string | undefined, body: string, secret: string, toleranceS = 300): boolean {
  if (!header) return false;
  const parts = Object.fromEntries(header.split(",").map((kv) => kv.split("=") as [string, string]));
  const t = Number(parts.t);
  if (!Number.isInteger(t) || Math.abs(Date.now() / 1000 - t) > toleranceS || !parts.v1) return false;
  const expected = createHmac("sha256", secret).update(`${t}.${body}`).digest();
  const given = Buffer.from(parts.v1, "hex");
  return given.length === expected.length && timingSafeEqual(given, expected);
}

export async function waitFor<T>(
  fn: () => T | undefined | false | Promise<T | undefined | false>,
  timeoutMs = 15_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await fn();
    if (value) return value;
    if (Date.now() > deadline) throw new Error("timed out waiting");
    await new Promise((r) => setTimeout(r, 50));
  }
}
