import http from "node:http";

/** What the proxy does with one request: pass it on, pass it on and lose the answer, or answer itself. */
export type ProxyAction =
  | "forward"
  | "forward-then-drop"
  | { status: number; headers?: Record<string, string>; body: unknown };

export interface ProxiedRequest {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  at: number;
  /** The service's answer, when the request was forwarded. */
  upstream?: { status: number; headers: Headers; body: string };
}

// Hop-by-hop headers, and those fetch rewrites (it has already decompressed and measured the body).
const NOT_COPIED = new Set([
  "host",
  "connection",
  "keep-alive",
  "content-length",
  "transfer-encoding",
  "content-encoding",
]);

/**
 * A loopback HTTP proxy in front of a web instance, to stage what the network does to an SDK call: a lost
 * answer (the request executed, the client saw the connection drop) or an answer of its own (a 429, a 500).
 */
export async function startProxy(target: string, plan: (request: ProxiedRequest, index: number) => ProxyAction) {
  const seen: ProxiedRequest[] = [];
  const server = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const request: ProxiedRequest = { method: req.method!, path: req.url!, headers: req.headers, at: Date.now() };
    seen.push(request);
    const action = plan(request, seen.length - 1);
    if (typeof action === "object") {
      res.writeHead(action.status, { "content-type": "application/json", ...action.headers });
      res.end(JSON.stringify(action.body));
      return;
    }
    const headers = Object.entries(req.headers).filter(([name]) => !NOT_COPIED.has(name)) as [string, string][];
    const body = chunks.length ? Buffer.concat(chunks) : undefined;
    const upstream = await fetch(`${target}${req.url}`, { method: req.method, headers, body });
    request.upstream = { status: upstream.status, headers: upstream.headers, body: await upstream.text() };
    if (action === "forward-then-drop") {
      req.socket.destroy(); // executed by the service, but the client never hears back
      return;
    }
    const back = [...upstream.headers].filter(([name]) => !NOT_COPIED.has(name));
    res.writeHead(upstream.status, Object.fromEntries(back)).end(request.upstream.body);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    seen,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The API's error envelope, as the proxy's own answers carry it. */
export const envelope = (type: string, status: number, message: string) => ({
  error: { type, message, status, param: null, request_id: "req_proxy000000000000000" },
});
