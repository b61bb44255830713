import { z } from "zod";
import { apiMethods } from "@/lib/http/api/methods";
import { apiRoute } from "@/lib/http/api/route";
import { EVENTS } from "@/lib/http/api/operations/events";
import { getEvent } from "@/lib/notify/events/list-events";
import { attemptPaginationQuery } from "@/lib/kernel/schemas/pagination";
import { listAttempts } from "@/lib/notify/webhooks/list-attempts";

export const { GET, POST, PUT, PATCH, DELETE } = apiMethods({
  GET: apiRoute({
    ...EVENTS.attempts,
    // Attempts show endpoint URLs and receivers' responses: webhook configuration, not just events.
    scope: ["events:read", "webhooks:read"],
    query: z.strictObject(attemptPaginationQuery),
    handler: async ({ db, auth, params, query }) => {
      await getEvent(db, auth, params.id!); // 404 unless it is the caller's
      const page = await listAttempts(db, auth, { eventId: params.id }, query);
      return { body: { object: "list", data: page.data, has_more: page.hasMore } };
    },
  }),
});
