import { describe, expect, it } from "vitest";
import { readEventStream } from "@/lib/cli/read-event-stream";
import { type SseFrame, sseStream } from "@/lib/http/sse/event-stream";

describe("the server-sent events writer", () => {
  it("reads frames only as fast as the client takes them: a backlog is not buffered whole in memory", async () => {
    let produced = 0;
    const data = "x".repeat(1_000);
    async function* backlog(): AsyncGenerator<SseFrame> {
      for (let i = 0; i < 5_000; i++) {
        produced++;
        yield { id: `evt_${i}`, event: "payment.confirmed", data };
      }
    }
    let closed = false;
    const stream = sseStream(backlog(), { retryMs: 2_000, onClose: () => (closed = true) });
    await new Promise((r) => setTimeout(r, 300));
    // About 64 KB of ~1 KB frames wait for the reader; the other ~4,900 are not read from the source yet.
    expect(produced).toBeGreaterThan(10);
    expect(produced).toBeLessThan(200);

    const ids: string[] = [];
    for await (const frame of readEventStream(stream)) ids.push(frame.id!);
    expect(ids).toHaveLength(5_000);
    expect(ids.at(-1)).toBe("evt_4999");
    expect(closed).toBe(true);
  });

  it("stops reading the source when the client goes away", async () => {
    let produced = 0;
    let finished = false;
    async function* endless(): AsyncGenerator<SseFrame> {
      try {
        for (;;) {
          produced++;
          yield { event: "status", data: "{}" };
          await new Promise((r) => setTimeout(r, 5));
        }
      } finally {
        finished = true;
      }
    }
    const stream = sseStream(endless(), { retryMs: 5_000 });
    const reader = stream.getReader();
    await reader.read();
    await reader.cancel();
    await new Promise((r) => setTimeout(r, 100));
    expect(finished).toBe(true);
    const after = produced;
    await new Promise((r) => setTimeout(r, 100));
    expect(produced).toBe(after);
  });
});
