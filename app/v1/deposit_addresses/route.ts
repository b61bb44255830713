import { apiMethods } from "@/lib/http/api/methods";
import { DEPOSIT_ADDRESSES } from "@/lib/http/api/operations/deposit-addresses";
import { apiRoute } from "@/lib/http/api/route";
import { depositTotals } from "@/lib/money-in/deposit-addresses/deposit-totals";
import { createDepositAddress, listDepositAddresses } from "@/lib/money-in/deposit-addresses/manage-deposit-addresses";
import { serializeDepositAddress } from "@/lib/money-in/deposit-addresses/serialize-deposit-address";

export const { GET, POST, PUT, PATCH, DELETE } = apiMethods({
  GET: apiRoute({
    ...DEPOSIT_ADDRESSES.list,
    handler: async ({ db, auth, query }) => {
      const page = await listDepositAddresses(db, auth, query);
      const totals = await depositTotals(
        db,
        page.rows.map((r) => r.id),
      );
      const data = page.rows.map((r) => serializeDepositAddress(r, totals.get(r.id)!));
      return { body: { object: "list", data, has_more: page.hasMore } };
    },
  }),
  POST: apiRoute({
    ...DEPOSIT_ADDRESSES.create,
    handler: async ({ db, auth, body }) => {
      const row = await createDepositAddress(db, auth, body);
      return { body: serializeDepositAddress(row, (await depositTotals(db, [row.id])).get(row.id)!) };
    },
  }),
});
