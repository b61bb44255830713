import { CHAIN_FAMILY, type Chain } from "@/lib/chains/chains";
import { config } from "@/lib/platform/config/env";
import type { Db } from "@/lib/platform/db/client";
import { query } from "@/lib/platform/db/query";
import type { Mode } from "@/lib/kernel/mode";
import { deriveAddress, deriveAddressFromXpub } from "./derive-address";
import { takePooledSolanaAddress } from "./solana-address-pool";
import { walletSeed } from "./wallet-seed";

export interface DepositAddress {
  address: string;
  index: number;
}

/**
 * A fresh, never-used deposit address for `paymentId`, in the caller's transaction. Sandbox, and live EVM and
 * Tron: the next index of the (mode, family) sequence (shared by every instance, never handing out an index
 * twice), derived from the sandbox seed or from the live account xpub (the seed where no xpub is configured).
 * Live Solana: an address from the pool the seed holder fills; null when the pool is empty
 * (docs/SECURITY.md, "Key custody").
 */
export async function allocateDepositAddress(
  db: Db,
  mode: Mode,
  chain: Chain,
  paymentId: string,
): Promise<DepositAddress | null> {
  const family = CHAIN_FAMILY[chain];
  if (mode === "live" && family === "solana") return takePooledSolanaAddress(db, mode, paymentId);
  // mode and family come from closed enums, so the sequence name is not user input.
  const [row] = await query<{ index: string }>(db, `select nextval('deposit_index_${mode}_${family}')::text as index`);
  const index = Number(row!.index);
  const xpub = mode === "live" && family !== "solana" ? config().liveXpubs[family] : undefined;
  const { address } =
    xpub && family !== "solana"
      ? deriveAddressFromXpub(xpub, family, index)
      : deriveAddress(await walletSeed(db, mode), family, index);
  return { address, index };
}
