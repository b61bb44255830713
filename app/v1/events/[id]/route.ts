import { z } from "zod";
import { apiMethods } from "@/lib/http/api/methods";
import { apiRoute } from "@/lib/http/api/route";
import { getEvent } from "@/lib/notify/events/list-events";

export const { GET, POST, PUT, PATCH, DELETE } = apiMethods({
  GET: apiRoute({
    scope: "events:read",
    query: z.strictObject({}),
    handler: async ({ db, auth, params }) => ({ body: await getEvent(db, auth, params.id!) }),
  }),
});
