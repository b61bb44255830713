import { toApiError } from "@/lib/http/api/errors";
import { notFound } from "@/lib/kernel/domain-error";
import { jsonResponse, requestIdOf } from "@/lib/http/api/respond";
import { type SseFrame, sseStream } from "@/lib/http/sse/event-stream";
import { getDb, type Db } from "@/lib/platform/db/client";
import { FINAL_STATUSES } from "@/lib/money-in/checkout/checkout-status";
import { loadCheckoutStatus, streamCheckoutStatus } from "@/lib/money-in/checkout/stream-status";

export const dynamic = "force-dynamic";

const HEADERS = {
  "Content-Type": "text/event-stream; charset=utf-8",
  "Cache-Control": "no-store",
  "X-Accel-Buffering": "no",
};

/**
 * Each status as it changes, then "end" only when there is nothing more to say; otherwise the stream just closes
 * and the browser reconnects.
 */
async function* statusFrames(db: Db, id: string, signal: AbortSignal): AsyncGenerator<SseFrame> {
  let final = false;
  for await (const status of streamCheckoutStatus(db, id, { signal })) {
    yield { event: "status", data: JSON.stringify(status) };
    final = FINAL_STATUSES.includes(status.status);
  }
  if (final) yield { event: "end", data: "{}" };
}

/** Server-sent events: the public checkout's status, pushed as it changes (lib/money-in/checkout/stream-status.ts). */
export async function GET(req: Request, ctx: { params: Promise<{ id: string }> }): Promise<Response> {
  const { id } = await ctx.params;
  const db = getDb();
  if (!(await loadCheckoutStatus(db, id))) {
    // The API's error envelope, as everywhere (its request id is the one in the Request-Id header).
    const requestId = requestIdOf(req);
    return jsonResponse(
      404,
      JSON.stringify(toApiError(notFound("checkout", id.slice(0, 40))).toBody(requestId)),
      requestId,
    );
  }
  // Reconnect after 5 s if the connection drops (each reconnect is a request against the page budget).
  return new Response(sseStream(statusFrames(db, id, req.signal), { retryMs: 5_000 }), { headers: HEADERS });
}
