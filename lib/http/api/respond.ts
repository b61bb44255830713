import { randomBase62 } from "@/lib/kernel/random";

export const API_VERSION = "1";

export function newRequestId(): string {
  return `req_${randomBase62(20)}`;
}

/** Our web server sets x-request-id (overwriting any sent by the client); in-process callers get a new one. */
export function requestIdOf(req: Request): string {
  const given = req.headers.get("x-request-id");
  return given && /^req_[0-9A-Za-z]{20}$/.test(given) ? given : newRequestId();
}

/** Set by the web server only (a client's copy is removed): the real method of a request routed as GET. */
export const ORIGINAL_METHOD_HEADER = "x-original-method";

/**
 * The request's real method. A method Next does not route (TRACE, PROPFIND, PURGE…) reaches the route as
 * GET with the original in a header only the web server sets (lib/http/server/web-server.ts).
 */
export function requestMethod(req: Request): string {
  return (req.headers.get(ORIGINAL_METHOD_HEADER) ?? req.method).slice(0, 20);
}

export function jsonResponse(
  status: number,
  bodyText: string,
  requestId: string,
  extra: Record<string, string> = {},
): Response {
  return new Response(bodyText, {
    status,
    headers: {
      "Content-Type": "application/json; charset=utf-8",
      "Cache-Control": "no-store",
      "X-API-Version": API_VERSION,
      "Request-Id": requestId,
      ...extra,
    },
  });
}

/** A server-sent events answer, with the headers every /v1 answer carries; proxies are asked not to buffer it. */
/** A file streamed as it is made (an export): its media type, and a name to save it under. */
export function fileStreamResponse(
  stream: ReadableStream<Uint8Array>,
  file: { contentType: string; filename: string },
  requestId: string,
  extra: Record<string, string> = {},
): Response {
  return new Response(stream, {
    headers: {
      "Content-Type": file.contentType,
      "Content-Disposition": `attachment; filename="${file.filename}"`,
      "Cache-Control": "no-store",
      "X-Accel-Buffering": "no",
      "X-Content-Type-Options": "nosniff",
      "X-API-Version": API_VERSION,
      "Request-Id": requestId,
      ...extra,
    },
  });
}

export function eventStreamResponse(
  stream: ReadableStream<Uint8Array>,
  requestId: string,
  extra: Record<string, string> = {},
): Response {
  return new Response(stream, {
    headers: {
      "Content-Type": "text/event-stream; charset=utf-8",
      "Cache-Control": "no-store",
      "X-Accel-Buffering": "no",
      "X-API-Version": API_VERSION,
      "Request-Id": requestId,
      ...extra,
    },
  });
}
