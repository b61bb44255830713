import { CHAIN_SPECS } from "@/lib/chains/chain-registry";
import { CHAINS, type Chain } from "@/lib/chains/chains";

/** What a payer reads: the network's plain name and the coin that pays its fees (from the chain registry). */
export const NETWORK = Object.fromEntries(
  CHAINS.map((c) => [
    c,
    { name: CHAIN_SPECS[c].name, standard: CHAIN_SPECS[c].standard, gas: CHAIN_SPECS[c].native.symbol },
  ]),
) as Record<Chain, { name: string; standard: string; gas: string }>;
