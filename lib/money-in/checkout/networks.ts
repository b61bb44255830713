import type { Chain } from "@/lib/chains/chains";

/** What a payer reads: the network's plain name and the coin that pays its fees. */
export const NETWORK: Record<Chain, { name: string; standard: string; gas: string }> = {
  eth: { name: "Ethereum", standard: "ERC-20", gas: "ETH" },
  bnb: { name: "BNB Smart Chain", standard: "BEP-20", gas: "BNB" },
  polygon: { name: "Polygon", standard: "ERC-20", gas: "POL" },
  tron: { name: "Tron", standard: "TRC-20", gas: "TRX" },
  solana: { name: "Solana", standard: "SPL", gas: "SOL" },
};
