/** One server-sent event: `id` is what the client sends back as Last-Event-ID when it reconnects. */
export interface SseFrame {
  id?: string;
  event: string;
  data: string;
}

const encoder = new TextEncoder();
/** What may wait in memory for a slow client before reading more frames stops until it catches up. */
const HIGH_WATER_BYTES = 64 * 1024;

/** The frame as the wire carries it; `data` is one line (JSON text), so it needs one `data:` field. */
export const encodeFrame = (frame: SseFrame): Uint8Array =>
  encoder.encode(`${frame.id ? `id: ${frame.id}\n` : ""}event: ${frame.event}\ndata: ${frame.data}\n\n`);

/**
 * A text/event-stream body from `frames`: first the client's reconnect delay, then each frame, with a
 * comment every `heartbeatMs` so proxies and clients see the connection alive while nothing happens. The
 * stream closes when the frames end or fail (the client reconnects) and stops reading them when the
 * client goes away.
 */
export function sseStream(
  frames: AsyncIterable<SseFrame>,
  opts: { retryMs: number; heartbeatMs?: number; onClose?: () => void },
): ReadableStream<Uint8Array> {
  let heartbeat: ReturnType<typeof setInterval> | undefined;
  let iterator: AsyncIterator<SseFrame> | undefined;
  let cancelled = false;
  return new ReadableStream<Uint8Array>(
    {
      async start(controller) {
        controller.enqueue(encoder.encode(`retry: ${opts.retryMs}\n\n`));
        heartbeat = setInterval(() => {
          try {
            controller.enqueue(encoder.encode(": keep-alive\n\n"));
          } catch {
            /* closed meanwhile */
          }
        }, opts.heartbeatMs ?? 15_000);
        iterator = frames[Symbol.asyncIterator]();
        try {
          for (;;) {
            // A slow reader is waited for, not buffered for: a long backlog streams at the client's pace.
            while (!cancelled && (controller.desiredSize ?? 1) <= 0) await new Promise((r) => setTimeout(r, 20));
            if (cancelled) break;
            const next = await iterator.next();
            if (next.done) break;
            controller.enqueue(encodeFrame(next.value));
          }
        } catch {
          /* the client went away, or the database did: the client reconnects */
        } finally {
          clearInterval(heartbeat);
          opts.onClose?.();
          try {
            controller.close();
          } catch {
            /* already closed */
          }
        }
      },
      async cancel() {
        cancelled = true;
        clearInterval(heartbeat);
        await iterator?.return?.();
      },
    },
    new ByteLengthQueuingStrategy({ highWaterMark: HIGH_WATER_BYTES }),
  );
}
