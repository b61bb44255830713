import type { IncomingMessage, ServerResponse } from "node:http";
import { promisify } from "node:util";
import { gzip } from "node:zlib";
import { MAX_BODY_BYTES } from "@/lib/http/api/parse-input";
import type { RouteHandler } from "@/lib/http/api/route";

const gzipAsync = promisify(gzip);
// Below this a body is sent as it is: gzip would save next to nothing (the `compression` package's threshold).
const COMPRESS_FROM_BYTES = 1024;
const NO_BODY = new Set(["GET", "HEAD"]);

/**
 * The body's first bytes, up to one past the API's limit, so the route refuses a larger body as it would
 * reading the stream (lib/http/api/parse-input.ts); a body declared larger is not read at all.
 */
function readBoundedBody(req: IncomingMessage, res: ServerResponse): Promise<Buffer> {
  // The rest of a larger body is never read: the connection closes after the answer.
  const tooLarge = () => res.setHeader("Connection", "close");
  if (Number(req.headers["content-length"] ?? 0) > MAX_BODY_BYTES) {
    tooLarge();
    return Promise.resolve(Buffer.alloc(0));
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const done = () => {
      req.off("data", onData).off("end", done).off("error", reject);
      resolve(Buffer.concat(chunks));
    };
    const onData = (chunk: Buffer) => {
      chunks.push(chunk);
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        req.pause();
        tooLarge();
        done();
      }
    };
    req.on("data", onData).on("end", done).on("error", reject);
  });
}

/** The headers as the web server left them, as pairs: the `Request` fills its own `Headers` from them once. */
function headerPairs(req: IncomingMessage): [string, string][] {
  const pairs: [string, string][] = [];
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined) continue;
    if (Array.isArray(value)) for (const v of value) pairs.push([name, v]);
    else pairs.push([name, value]);
  }
  return pairs;
}

const acceptsGzip = (req: IncomingMessage) =>
  /\bgzip\b(?!\s*;\s*q=0(?:\.0*)?\b)/i.test(req.headers["accept-encoding"] ?? "");

/**
 * Answers a /v1 request with its route's handler (lib/http/server/api-routes.ts), as Next would: a Web
 * Request with the headers the web server vetted, params decoded, a signal that aborts when the client goes
 * away; the Response written back, streamed when it is server-sent events or a file (an export), otherwise
 * gzipped from 1 KB when the client accepts it. The request's path is the one forwarded (`forward`), so the
 * idempotency hash is Next's.
 */
export async function serveApiRoute(
  req: IncomingMessage,
  res: ServerResponse,
  handler: RouteHandler,
  params: Record<string, string | string[]>,
  forward: string,
): Promise<void> {
  const method = req.method ?? "GET";
  const body = NO_BODY.has(method) ? undefined : await readBoundedBody(req, res);
  const gone = new AbortController();
  res.once("close", () => {
    if (!res.writableFinished) gone.abort();
  });
  const request = new Request(`http://localhost${forward}`, {
    method,
    headers: headerPairs(req),
    // A Buffer is a Uint8Array, which undici takes as it is; TypeScript's DOM types do not list it.
    body: body?.length ? (body as unknown as BodyInit) : undefined,
    signal: gone.signal,
  });
  const response = await handler(request, { params: Promise.resolve(params) });
  res.statusCode = response.status;
  for (const [name, value] of response.headers) {
    // The web server's own (X-API-Version, Request-Id) keep their spelling when the route repeats them.
    if (name !== "set-cookie" && res.getHeader(name) !== value) res.setHeader(name, value);
  }
  const cookies = response.headers.getSetCookie();
  if (cookies.length) res.setHeader("Set-Cookie", cookies);
  if (!response.body) return void res.end();
  // Server-sent events never end, and an export (a file: Content-Disposition) may be gigabytes: both are written as
  // they come, at the client's pace (drain), never gathered in memory first.
  const streamed =
    (response.headers.get("content-type") ?? "").startsWith("text/event-stream") ||
    response.headers.has("content-disposition");
  if (streamed) {
    // HEAD gets the stream's headers and no stream: it may never end.
    if (method === "HEAD") {
      gone.abort(); // the route stops its reads and gives its stream slot back, as when a client leaves
      void response.body.cancel().catch(() => {}); // not awaited: it waits for the read in flight to stop
      return void res.end();
    }
    return streamBody(response.body, res);
  }
  let bytes = Buffer.from(await response.arrayBuffer());
  res.setHeader("Vary", "Accept-Encoding");
  if (bytes.length >= COMPRESS_FROM_BYTES && !response.headers.has("content-encoding") && acceptsGzip(req)) {
    bytes = await gzipAsync(bytes);
    res.setHeader("Content-Encoding", "gzip");
  }
  res.setHeader("Content-Length", bytes.length);
  res.end(bytes);
}

/**
 * Writes each chunk (an event, an export's batch) as it comes, the next read only once the socket has taken the
 * last; the client leaving cancels the stream (the route stops its reads with it).
 */
async function streamBody(body: ReadableStream<Uint8Array>, res: ServerResponse): Promise<void> {
  const reader = body.getReader();
  res.once("close", () => void reader.cancel().catch(() => {}));
  res.flushHeaders();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (!res.write(value)) await drainedOrClosed(res);
    }
    res.end();
  } catch {
    res.destroy();
  }
}

/** Until the socket takes more or the client goes; both listeners removed either way (one wait per chunk). */
function drainedOrClosed(res: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      res.off("drain", done).off("close", done);
      resolve();
    };
    res.on("drain", done).on("close", done);
  });
}
