import { apiMethods } from "@/lib/http/api/methods";
import { DEPOSIT_ADDRESSES } from "@/lib/http/api/operations/deposit-addresses";
import { apiRoute } from "@/lib/http/api/route";
import { depositTotals } from "@/lib/money-in/deposit-addresses/deposit-totals";
import { getDepositAddress, updateDepositAddress } from "@/lib/money-in/deposit-addresses/manage-deposit-addresses";
import { serializeDepositAddress } from "@/lib/money-in/deposit-addresses/serialize-deposit-address";

// Retrieve and update (POST, as Stripe does): docs/API.md#deposit-addresses.
export const { GET, POST, PUT, PATCH, DELETE } = apiMethods({
  GET: apiRoute({
    ...DEPOSIT_ADDRESSES.retrieve,
    handler: async ({ db, auth, params }) => {
      const row = await getDepositAddress(db, auth, params.id!);
      return { body: serializeDepositAddress(row, (await depositTotals(db, [row.id])).get(row.id)!) };
    },
  }),
  POST: apiRoute({
    ...DEPOSIT_ADDRESSES.update,
    handler: async ({ db, auth, params, body }) => {
      const row = await updateDepositAddress(db, auth, params.id!, body);
      return { body: serializeDepositAddress(row, (await depositTotals(db, [row.id])).get(row.id)!) };
    },
  }),
});
