import { apiMethods } from "@/lib/http/api/methods";
import { DEPOSITS } from "@/lib/http/api/operations/deposit-addresses";
import { apiRoute } from "@/lib/http/api/route";
import { getDeposit } from "@/lib/money-in/deposit-addresses/list-deposits";
import { serializeDeposit } from "@/lib/money-in/deposit-addresses/serialize-deposit";

export const { GET, POST, PUT, PATCH, DELETE } = apiMethods({
  GET: apiRoute({
    ...DEPOSITS.retrieve,
    handler: async ({ db, auth, params }) => ({ body: serializeDeposit(await getDeposit(db, auth, params.id!)) }),
  }),
});
