import { apiMethods } from "@/lib/http/api/methods";
import { apiRoute } from "@/lib/http/api/route";
import { PAYOUTS } from "@/lib/http/api/operations/payouts";
import { createPayout, preparePayout } from "@/lib/money-out/payouts/create-payout";
import { listPayouts } from "@/lib/money-out/payouts/list-payouts";
import { serializePayout } from "@/lib/money-out/payouts/serialize-payout";

// Payout endpoints share their own 10/min window per key (docs/API.md#rate-limits).
export const { GET, POST, PUT, PATCH, DELETE } = apiMethods({
  GET: apiRoute({
    ...PAYOUTS.list,
    handler: async ({ db, auth, query }) => {
      const page = await listPayouts(db, auth, query);
      return { body: { object: "list", data: page.rows.map(serializePayout), has_more: page.hasMore } };
    },
  }),
  POST: apiRoute({
    ...PAYOUTS.create,
    // The destination guards that read the chain (Solana) run outside the request's transactions.
    phases: {
      prepare: ({ db, auth, body }) => preparePayout(db, auth, body),
      send: (_ctx, check) => check(),
      record: async ({ db, auth, body }) => ({
        body: serializePayout(await createPayout(db, auth, body, { keyId: auth.keyId })),
      }),
    },
  }),
});
