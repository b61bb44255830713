import { apiMethods } from "@/lib/http/api/methods";
import { apiRoute } from "@/lib/http/api/route";
import { BALANCE_TRANSACTIONS } from "@/lib/http/api/operations/balance-transactions";
import { getBalanceTransaction } from "@/lib/reports/balance-transactions/list-balance-transactions";

export const { GET, POST, PUT, PATCH, DELETE } = apiMethods({
  GET: apiRoute({
    ...BALANCE_TRANSACTIONS.retrieve,
    handler: async ({ db, auth, params }) => ({ body: await getBalanceTransaction(db, auth, params.id!) }),
  }),
});
