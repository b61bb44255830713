import { CHAIN_FAMILY, type Chain } from "@/lib/chains/chains";
import type { Db } from "@/lib/db/client";
import { query } from "@/lib/db/query";
import type { Mode } from "@/lib/modes/mode";
import { deriveAddress } from "./derive-address";
import { walletSeed } from "./wallet-seed";

export interface DepositAddress {
  address: string;
  index: number;
}

/**
 * A fresh, never-used deposit address: the next index of the (mode, family) sequence, derived from the
 * mode's seed. Sequences are shared by every instance and never hand out an index twice.
 */
export async function allocateDepositAddress(db: Db, mode: Mode, chain: Chain): Promise<DepositAddress> {
  const family = CHAIN_FAMILY[chain];
  // mode and family come from closed enums, so the sequence name is not user input.
  const [row] = await query<{ index: string }>(db, `select nextval('deposit_index_${mode}_${family}')::text as index`);
  const index = Number(row!.index);
  const { address } = deriveAddress(await walletSeed(db, mode), family, index);
  return { address, index };
}
