import { enabledChainConfigs } from "@/lib/chains/chain-config";
import { apiMethods } from "@/lib/http/api/methods";
import { CHAINS_OPERATIONS } from "@/lib/http/api/operations/chains";
import { apiRoute } from "@/lib/http/api/route";
import { listChainStatus } from "@/lib/money-in/watch/chain-status";

export const { GET, POST, PUT, PATCH, DELETE } = apiMethods({
  GET: apiRoute({
    ...CHAINS_OPERATIONS.list,
    handler: async ({ db, auth }) => ({
      body: { object: "list", data: await listChainStatus(db, auth.mode, await enabledChainConfigs(db, auth.mode)) },
    }),
  }),
});
