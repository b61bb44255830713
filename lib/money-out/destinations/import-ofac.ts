import { newId } from "@/lib/kernel/random";
import { inTransaction, type Db } from "@/lib/platform/db/client";
import { query } from "@/lib/platform/db/query";
import { extractOfacAddresses } from "./ofac-addresses";
import { readOfacFiles } from "./ofac-files";

export interface OfacImportResult {
  imported: number;
  evm: number;
  tron: number;
  solana: number;
  skipped: Record<string, number>;
  /** Earlier OFAC entries the new files no longer list (delisted): no longer denied. */
  removed: number;
}

/**
 * Imports the digital-currency addresses of OFAC's SDN files (docs/PAYOUTS.md, "The deny-list"). The files
 * are read and checked in full first (an OfacFileError writes nothing); then, in one transaction, every
 * earlier `ofac` row is replaced by the new set, so a delisted address stops being denied and no payout
 * ever sees a half-imported list. Entries added by hand (`cli`) are never touched.
 */
export async function importOfac(db: Db, paths: string[]): Promise<OfacImportResult> {
  const { addresses, evm, tron, solana, skipped } = extractOfacAddresses(readOfacFiles(paths));
  const removed = await inTransaction(db, async (tx) => {
    // Two imports at once would both delete, then collide on insert: one at a time.
    await query(tx, "select pg_advisory_xact_lock(hashtext('payout_denylist_ofac'))");
    const earlier = await query<{ chain: string | null; address: string }>(
      tx,
      "delete from payout_denylist where source = 'ofac' returning chain, address",
    );
    await query(
      tx,
      `insert into payout_denylist (id, chain, address, reason, source)
       select id, chain, address, reason, 'ofac' from unnest($1::text[], $2::text[], $3::text[], $4::text[])
         as t(id, chain, address, reason)`,
      [
        addresses.map(() => newId("deny_")),
        addresses.map((a) => a.chain),
        addresses.map((a) => a.address),
        addresses.map((a) => a.reason),
      ],
    );
    const now = new Set(addresses.map((a) => `${a.chain ?? "*"} ${a.address}`));
    return earlier.filter((e) => !now.has(`${e.chain ?? "*"} ${e.address}`)).length;
  });
  return { imported: addresses.length, evm, tron, solana, skipped, removed };
}
