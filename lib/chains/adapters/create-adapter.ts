import type { ChainConfig } from "@/lib/chains/chain-config";
import { EvmAdapter } from "./evm-adapter";
import { SolanaAdapter } from "./solana-adapter";
import { TronAdapter, tronJsonRpcUrl } from "./tron-adapter";
import type { ChainAdapter } from "./types";

/** The adapter for a chain's family, built from its configuration (sandbox or live alike). */
export function createChainAdapter(config: ChainConfig): ChainAdapter {
  switch (config.family) {
    case "evm":
      return new EvmAdapter(config.chain, config);
    case "tron":
      return new TronAdapter(config.chain, {
        fullHost: config.rpcUrl,
        jsonRpcUrl: tronJsonRpcUrl(config),
        tokenAddress: config.tokenAddress,
      });
    case "solana":
      return new SolanaAdapter(config.chain, config);
  }
}
