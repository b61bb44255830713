import { config } from "@/lib/platform/config/env";
import { apiMethods } from "@/lib/http/api/methods";
import { apiRoute } from "@/lib/http/api/route";
import { REFUNDS } from "@/lib/http/api/operations/refunds";
import { createRefund } from "@/lib/money-out/refunds/create-refund";
import { listRefunds } from "@/lib/money-out/refunds/list-refunds";
import { prepareRefundDestination } from "@/lib/money-out/refunds/prepare-refund";
import { serializeRefund, serializeRefundForRefunder } from "@/lib/money-out/refunds/serialize-refund";

export const { GET, POST, PUT, PATCH, DELETE } = apiMethods({
  GET: apiRoute({
    ...REFUNDS.list,
    handler: async ({ db, auth, query }) => {
      const page = await listRefunds(db, auth, query);
      // A list never carries claim links, even to refunders: one leaked read would collect them all.
      const data = page.rows.map((row) => serializeRefund(row));
      return { body: { object: "list", data, has_more: page.hasMore } };
    },
  }),
  POST: apiRoute({
    ...REFUNDS.create,
    // The destination guards that read the chain (Solana) run outside the request's transactions.
    phases: {
      prepare: ({ db, auth, body }) => prepareRefundDestination(db, auth, body),
      send: (_ctx, prepared) => prepared.check(),
      record: async ({ db, auth, body }, prepared) => {
        const created = await createRefund(db, auth, body, prepared.toAddress, { keyId: auth.keyId });
        return {
          body: serializeRefundForRefunder(created.row, config().publicBaseUrl, created.claimCode),
          // The claim link (and code) are the payer's key to the money: the idempotent copy is stored encrypted.
          sensitive: true,
        };
      },
    },
  }),
});
