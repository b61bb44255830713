import { apiMethods } from "@/lib/http/api/methods";
import { apiRoute } from "@/lib/http/api/route";
import { PAYOUTS } from "@/lib/http/api/operations/payouts";
import { getPayout } from "@/lib/money-out/payouts/payout-kind";
import { serializePayout } from "@/lib/money-out/payouts/serialize-payout";

export const { GET, POST, PUT, PATCH, DELETE } = apiMethods({
  GET: apiRoute({
    ...PAYOUTS.retrieve,
    handler: async ({ db, auth, params }) => ({ body: serializePayout(await getPayout(db, auth, params.id!)) }),
  }),
});
