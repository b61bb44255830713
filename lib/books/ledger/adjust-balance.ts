import { newId } from "@/lib/kernel/random";
import type { Chain } from "@/lib/chains/chains";
import { inTransaction, type Db } from "@/lib/platform/db/client";
import type { Mode } from "@/lib/kernel/mode";
import { postJournal } from "./post-journal";

/**
 * An operator's correction of a merchant's available balance (positive credits, negative debits), as its
 * own journal against the `adjustments` account. Also how sandbox balances are funded before the chain
 * watchers credit real deposits.
 */
export async function adjustBalance(
  db: Db,
  input: { merchantId: string; mode: Mode; chain: Chain; amount: bigint; reason: string },
): Promise<string> {
  const adjustmentId = newId("adj_");
  await inTransaction(db, (tx) =>
    postJournal(tx, {
      merchantId: input.merchantId,
      mode: input.mode,
      chain: input.chain,
      cause: { type: "adjustment", id: `${adjustmentId}:${input.reason.slice(0, 200)}` },
      entries: [
        { account: "available", amount: input.amount },
        { account: "adjustments", amount: -input.amount },
      ],
    }),
  );
  return adjustmentId;
}
