import { apiMethods } from "@/lib/http/api/methods";
import { apiRoute } from "@/lib/http/api/route";
import { EVENTS } from "@/lib/http/api/operations/events";
import { getEvent } from "@/lib/notify/events/list-events";

export const { GET, POST, PUT, PATCH, DELETE } = apiMethods({
  GET: apiRoute({
    ...EVENTS.retrieve,
    handler: async ({ db, auth, params }) => ({ body: await getEvent(db, auth, params.id!) }),
  }),
});
