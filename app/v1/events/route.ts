import { z } from "zod";
import { apiMethods } from "@/lib/http/api/methods";
import { apiRoute } from "@/lib/http/api/route";
import { listEvents } from "@/lib/notify/events/list-events";
import { paginationQuery } from "@/lib/kernel/schemas/pagination";
import { EVENT_TYPES } from "@/lib/notify/events/event-types";

// An addition (Stripe-standard, docs/API-DECISIONS.md): the merchant can read what was (or would have been) delivered.
export const { GET, POST, PUT, PATCH, DELETE } = apiMethods({
  GET: apiRoute({
    scope: "events:read",
    query: z.strictObject({
      ...paginationQuery,
      type: z.enum(EVENT_TYPES, { error: `type must be one of ${EVENT_TYPES.join(", ")}` }).optional(),
    }),
    handler: async ({ db, auth, query }) => {
      const page = await listEvents(db, auth, query);
      return { body: { object: "list", data: page.events, has_more: page.hasMore } };
    },
  }),
});
