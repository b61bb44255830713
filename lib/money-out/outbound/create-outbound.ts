import { familyTraits } from "@/lib/chains/family-traits";
import type { Db } from "@/lib/platform/db/client";
import { query } from "@/lib/platform/db/query";
import { newId } from "@/lib/kernel/random";
import { outboundRow, type OutboundRow } from "./outbound-row";
import type { OutboundIntent } from "@/lib/chains/outbound-intent";
import type { OutboundOptions } from "./outbound-types";

/** What a new intent says: the intent's own fields but its id, nonce and options, which come later or default. */
export interface OutboundInput extends Omit<OutboundIntent, "id" | "nonce" | "options"> {
  causeId?: string;
  options?: OutboundOptions;
  /** Sign only once this intent is confirmed (a sweep after its gas top-up). */
  after?: string;
}

/**
 * Records an intent to send, in the caller's transaction (with the state change that asks for it). Nothing
 * is signed here: the chain's outbound leader signs, stores and sends it (lib/money-out/outbound/track-outbound.ts).
 */
export async function createOutbound(db: Db, input: OutboundInput): Promise<OutboundRow> {
  // Only Tron lends staked resources; another family's driver would read a stake as a token transfer.
  if (input.asset === "stake" && !familyTraits(input.chain).lendsStake)
    throw new Error(`${input.chain}: only Tron transactions lend stake`);
  const [row] = await query(
    db,
    `insert into outbound_transactions
       (id, mode, chain, purpose, status, signer, from_address, to_address, asset, raw_amount,
        cause_id, after_id, options)
     values ($1, $2, $3, $4, 'intent', $5, $6, $7, $8, $9, $10, $11, $12)
     returning ${outboundRow.columns}`,
    [
      newId("otx_"),
      input.mode,
      input.chain,
      input.purpose,
      JSON.stringify(input.signer),
      input.fromAddress,
      input.toAddress,
      input.asset,
      input.rawAmount.toString(),
      input.causeId ?? null,
      input.after ?? null,
      JSON.stringify(input.options ?? {}),
    ],
  );
  return outboundRow.map(row!);
}
