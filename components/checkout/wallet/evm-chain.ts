import { defineChain, type Chain } from "viem";
import { bsc, bscTestnet, mainnet, polygon, polygonAmoy, sepolia } from "viem/chains";
import type { CheckoutNetwork } from "@/lib/money-in/checkout/load-checkout";

/** Public chains a live payment may be on: their public RPC and explorer, for a wallet that must add the chain. */
const KNOWN: Record<number, Chain> = Object.fromEntries(
  [mainnet, sepolia, bsc, bscTestnet, polygon, polygonAmoy].map((c) => [c.id, c]),
);

/**
 * The one chain of a payment, for wagmi and for the wallet (wallet_addEthereumChain when the wallet does
 * not know it): id from the payment, the network's name and fee coin, and the browser RPC when the server
 * gives one (sandbox chains), else the chain's public RPC. The page itself never reads from it.
 */
export function checkoutChain(network: Pick<CheckoutNetwork, "chainId" | "name" | "gas" | "browserRpcUrl">): Chain {
  if (network.chainId === null) throw new Error(`${network.name} has no chain ID`);
  const known = KNOWN[network.chainId];
  const rpc = network.browserRpcUrl ?? known?.rpcUrls.default.http[0];
  return defineChain({
    id: network.chainId,
    // A sandbox chain must not be added to a wallet under a mainnet's name.
    name: network.browserRpcUrl ? `${network.name} (sandbox)` : (known?.name ?? network.name),
    nativeCurrency: { name: network.gas, symbol: network.gas, decimals: 18 },
    rpcUrls: { default: { http: rpc ? [rpc] : [] } },
    ...(known?.blockExplorers && !network.browserRpcUrl ? { blockExplorers: known.blockExplorers } : {}),
  });
}

/** How to name the network to select by hand: "BNB Smart Chain (chain ID 56)". */
export function evmNetworkLabel(network: Pick<CheckoutNetwork, "chainId" | "name" | "browserRpcUrl">): string {
  return `${network.name}${network.browserRpcUrl ? " sandbox" : ""} (chain ID ${network.chainId})`;
}
