import { apiMethods } from "@/lib/http/api/methods";
import { CUSTOMERS } from "@/lib/http/api/operations/customers";
import { apiRoute } from "@/lib/http/api/route";
import { deleteCustomer, getCustomer, updateCustomer } from "@/lib/money-in/customers/manage-customers";
import { serializeCustomer } from "@/lib/money-in/customers/serialize-customer";

// Retrieve, update (POST, as Stripe does) and delete: docs/API.md#customers.
export const { GET, POST, PUT, PATCH, DELETE } = apiMethods({
  GET: apiRoute({
    ...CUSTOMERS.retrieve,
    handler: async ({ db, auth, params }) => ({ body: serializeCustomer(await getCustomer(db, auth, params.id!)) }),
  }),
  POST: apiRoute({
    ...CUSTOMERS.update,
    handler: async ({ db, auth, params, body }) => ({
      body: serializeCustomer(await updateCustomer(db, auth, params.id!, body)),
    }),
  }),
  DELETE: apiRoute({
    ...CUSTOMERS.delete,
    handler: async ({ db, auth, params }) => ({ body: await deleteCustomer(db, auth, params.id!) }),
  }),
});
