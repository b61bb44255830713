import type { Db } from "@/lib/platform/db/client";
import { query } from "@/lib/platform/db/query";
import { log } from "@/lib/platform/log";
import type { OutboundRow } from "./outbound-row";

/**
 * The next nonce of the intent's signer, in the caller's transaction (the one that stores the signed bytes):
 * the row lock serializes signers, and a rollback returns the nonce. `chainCount` (the signer's mined
 * transaction count, read before the transaction) only moves the sequence forward, past nonces that a
 * transaction sent from outside the service used (docs/CUSTODY.md, "Nonces"); that drift is logged. `count`
 * consecutive nonces are taken when the transaction uses more than one; the first is returned.
 */
export async function allocateNonce(db: Db, intent: OutboundRow, chainCount: bigint, count = 1): Promise<bigint> {
  const key = [intent.mode, intent.chain, intent.fromAddress.toLowerCase()];
  const [prior] = await query<{ next: string }>(
    db,
    "select next_nonce::text as next from signer_nonces where mode = $1 and chain = $2 and address = $3 for update",
    key,
  );
  if (prior && chainCount > BigInt(prior.next))
    log.warn("nonce drift: the signer sent transactions outside the service; its nonces resync to the chain", {
      mode: intent.mode,
      chain: intent.chain,
      address: intent.fromAddress,
      expected: prior.next,
      chain_count: chainCount.toString(),
    });
  const [row] = await query<{ nonce: string }>(
    db,
    `insert into signer_nonces (mode, chain, address, next_nonce) values ($1, $2, $3, $4::bigint + $5::int)
     on conflict (mode, chain, address) do update
       set next_nonce = greatest(signer_nonces.next_nonce, $4::bigint) + $5::int, updated_at = now()
     returning (next_nonce - $5::int)::text as nonce`,
    [...key, chainCount.toString(), count],
  );
  return BigInt(row!.nonce);
}
