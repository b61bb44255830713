import { apiMethods } from "@/lib/http/api/methods";
import { apiRoute } from "@/lib/http/api/route";
import { EVENTS } from "@/lib/http/api/operations/events";
import { listEvents } from "@/lib/notify/events/list-events";

// An addition (Stripe-standard, docs/API-DECISIONS.md): the merchant can read what was (or would have been) delivered.
export const { GET, POST, PUT, PATCH, DELETE } = apiMethods({
  GET: apiRoute({
    ...EVENTS.list,
    handler: async ({ db, auth, query }) => {
      const page = await listEvents(db, auth, query);
      return { body: { object: "list", data: page.events, has_more: page.hasMore } };
    },
  }),
});
