import { apiMethods } from "@/lib/http/api/methods";
import { apiRoute } from "@/lib/http/api/route";
import { BALANCE_TRANSACTIONS } from "@/lib/http/api/operations/balance-transactions";
import { listBalanceTransactions } from "@/lib/reports/balance-transactions/list-balance-transactions";

export const { GET, POST, PUT, PATCH, DELETE } = apiMethods({
  GET: apiRoute({
    ...BALANCE_TRANSACTIONS.list,
    handler: async ({ db, auth, query }) => {
      const page = await listBalanceTransactions(db, auth, query);
      return { body: { object: "list", data: page.data, has_more: page.hasMore } };
    },
  }),
});
