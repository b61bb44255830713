import { apiMethods } from "@/lib/http/api/methods";
import { DEPOSITS } from "@/lib/http/api/operations/deposit-addresses";
import { apiRoute } from "@/lib/http/api/route";
import { listDeposits } from "@/lib/money-in/deposit-addresses/list-deposits";
import { serializeDeposit } from "@/lib/money-in/deposit-addresses/serialize-deposit";

export const { GET, POST, PUT, PATCH, DELETE } = apiMethods({
  GET: apiRoute({
    ...DEPOSITS.list,
    handler: async ({ db, auth, query }) => {
      const page = await listDeposits(db, auth, query);
      return { body: { object: "list", data: page.rows.map(serializeDeposit), has_more: page.hasMore } };
    },
  }),
});
