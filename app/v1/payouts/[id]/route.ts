import { z } from "zod";
import { apiMethods } from "@/lib/api/methods";
import { apiRoute } from "@/lib/api/route";
import { getPayout } from "@/lib/payouts/get-payout";
import { serializePayout } from "@/lib/payouts/serialize-payout";

export const { GET, POST, PUT, PATCH, DELETE } = apiMethods({
  GET: apiRoute({
    scope: "payouts:read",
    rateLimit: "payouts",
    query: z.strictObject({}),
    handler: async ({ db, auth, params }) => ({ body: serializePayout(await getPayout(db, auth, params.id!)) }),
  }),
});
