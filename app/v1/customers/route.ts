import { apiMethods } from "@/lib/http/api/methods";
import { CUSTOMERS } from "@/lib/http/api/operations/customers";
import { apiRoute } from "@/lib/http/api/route";
import { createCustomer, listCustomers } from "@/lib/money-in/customers/manage-customers";
import { serializeCustomer } from "@/lib/money-in/customers/serialize-customer";

export const { GET, POST, PUT, PATCH, DELETE } = apiMethods({
  GET: apiRoute({
    ...CUSTOMERS.list,
    handler: async ({ db, auth, query }) => {
      const page = await listCustomers(db, auth, query);
      return { body: { object: "list", data: page.rows.map(serializeCustomer), has_more: page.hasMore } };
    },
  }),
  POST: apiRoute({
    ...CUSTOMERS.create,
    handler: async ({ db, auth, body }) => ({ body: serializeCustomer(await createCustomer(db, auth, body)) }),
  }),
});
