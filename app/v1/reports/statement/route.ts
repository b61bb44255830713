import { apiMethods } from "@/lib/http/api/methods";
import { apiRoute } from "@/lib/http/api/route";
import { REPORTS } from "@/lib/http/api/operations/reports";
import { buildStatement } from "@/lib/reports/statements/build-statement";

export const { GET, POST, PUT, PATCH, DELETE } = apiMethods({
  GET: apiRoute({
    ...REPORTS.statement,
    handler: async ({ db, auth, query }) => ({ body: await buildStatement(db, auth, query) }),
  }),
});
