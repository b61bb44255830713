import { apiMethods } from "@/lib/http/api/methods";
import { DEPOSITS } from "@/lib/http/api/operations/deposit-addresses";
import { apiRoute } from "@/lib/http/api/route";
import { serializeDeposit } from "@/lib/money-in/deposit-addresses/serialize-deposit";
import { prepareRescan } from "@/lib/money-in/watch/rescan-transaction";

export const { GET, POST, PUT, PATCH, DELETE } = apiMethods({
  POST: apiRoute({
    ...DEPOSITS.rescan,
    // The chain is read outside any transaction, what it found written in the record phase's (rescan-transaction.ts).
    phases: {
      prepare: ({ db, auth, body }) => prepareRescan(db, auth, body.chain, body.tx_hash),
      send: ({ db }, rescan) => rescan.read(db),
      record: async ({ db, body }, rescan, read) => {
        const result = await rescan.apply(db, read);
        return {
          body: {
            object: "deposit_rescan" as const,
            chain: body.chain,
            tx_hash: result.txHash,
            recorded: result.recorded,
            left_to_watcher: result.leftToWatcher,
            deposits: result.deposits.map(serializeDeposit),
          },
        };
      },
    },
  }),
});
