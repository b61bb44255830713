import { z } from "zod";
import { apiMethods } from "@/lib/http/api/methods";
import { apiRoute } from "@/lib/http/api/route";
import { getPayout } from "@/lib/money-out/payouts/get-payout";
import { serializePayout } from "@/lib/money-out/payouts/serialize-payout";

export const { GET, POST, PUT, PATCH, DELETE } = apiMethods({
  GET: apiRoute({
    scope: "payouts:read",
    rateLimit: "payouts",
    query: z.strictObject({}),
    handler: async ({ db, auth, params }) => ({ body: serializePayout(await getPayout(db, auth, params.id!)) }),
  }),
});
