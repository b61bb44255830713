import { toApiError } from "@/lib/http/api/errors";
import { notFound } from "@/lib/kernel/domain-error";
import { jsonResponse, requestIdOf } from "@/lib/http/api/respond";
import { getDb } from "@/lib/platform/db/client";
import { FINAL_STATUSES } from "@/lib/money-in/checkout/checkout-status";
import { loadCheckoutStatus, streamCheckoutStatus } from "@/lib/money-in/checkout/stream-status";

export const dynamic = "force-dynamic";

const HEADERS = {
  "Content-Type": "text/event-stream; charset=utf-8",
  "Cache-Control": "no-store",
  "X-Accel-Buffering": "no",
};

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
  const encoder = new TextEncoder();
  const stream = new ReadableStream<Uint8Array>({
    async start(controller) {
      // Reconnect after 5 s if the connection drops (each reconnect is a request against the page budget).
      controller.enqueue(encoder.encode("retry: 5000\n\n"));
      const heartbeat = setInterval(() => controller.enqueue(encoder.encode(": keep-alive\n\n")), 15_000);
      try {
        let final = false;
        for await (const status of streamCheckoutStatus(db, id, { signal: req.signal })) {
          controller.enqueue(encoder.encode(`event: status\ndata: ${JSON.stringify(status)}\n\n`));
          final = FINAL_STATUSES.includes(status.status);
        }
        // "end" only when there is nothing more to say; otherwise the stream just closes and the browser
        // reconnects after the retry delay.
        if (final) controller.enqueue(encoder.encode("event: end\ndata: {}\n\n"));
      } catch {
        /* the client went away, or the database did: the browser reconnects */
      } finally {
        clearInterval(heartbeat);
        try {
          controller.close();
        } catch {
          /* already closed */
        }
      }
    },
  });
  return new Response(stream, { headers: HEADERS });
}
