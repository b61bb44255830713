import { z } from "zod";
import { apiMethods } from "@/lib/api/methods";
import { apiRoute } from "@/lib/api/route";
import { getEvent } from "@/lib/events/list-events";

export const { GET, POST, PUT, PATCH, DELETE } = apiMethods({
  GET: apiRoute({
    scope: "events:read",
    query: z.strictObject({}),
    handler: async ({ db, auth, params }) => ({ body: await getEvent(db, auth, params.id!) }),
  }),
});
