import { apiMethods } from "@/lib/http/api/methods";
import { apiRoute } from "@/lib/http/api/route";
import { EVENTS } from "@/lib/http/api/operations/events";
import { sseStream } from "@/lib/http/sse/event-stream";
import { takeStreamSlot } from "@/lib/http/sse/key-stream-slots";
import { watchApiKey } from "@/lib/identity/api-keys/watch-api-key";
import { currentStreamCursor, streamCursorAfter, streamEvents } from "@/lib/notify/events/stream-events";

export const dynamic = "force-dynamic";

async function* frames(events: ReturnType<typeof streamEvents>) {
  for await (const event of events) yield { id: event.id, event: event.type, data: event.body };
}

// What `listen` reads (docs/API.md#streaming-events): the cursor is fixed before the answer starts, so an
// event that happens after the client has the headers is in the stream.
export const { GET, POST, PUT, PATCH, DELETE } = apiMethods({
  GET: apiRoute({
    ...EVENTS.stream,
    handler: async ({ db, auth, query, headers, signal }) => {
      const lastEventId = headers["Last-Event-ID"];
      const cursor = lastEventId ? await streamCursorAfter(db, auth, lastEventId) : await currentStreamCursor(db);
      const release = takeStreamSlot(auth);
      // A revoke or re-scope of the key ends the stream as it refuses the key's next request.
      const key = watchApiKey(db, auth, "events:read", signal);
      const events = streamEvents(db, auth, {
        cursor,
        types: query.types ?? null,
        signal: key.signal,
        allowed: key.stillAllowed,
      });
      const onClose = () => {
        release();
        key.close();
      };
      return { body: null, stream: sseStream(frames(events), { retryMs: 2_000, onClose }) };
    },
  }),
});
