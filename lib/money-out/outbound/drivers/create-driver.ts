import type { ChainConfig } from "@/lib/chains/chain-config";
import type { OutboundDriver } from "./driver";
import { EvmDriver } from "./evm-driver";
import { SolanaDriver } from "./solana-driver";
import { TronDriver } from "./tron-driver";

/** The outbound driver of a chain's family. */
export function createOutboundDriver(config: ChainConfig): OutboundDriver {
  switch (config.family) {
    case "evm":
      return new EvmDriver(config);
    case "tron":
      return new TronDriver(config);
    case "solana":
      return new SolanaDriver(config);
  }
}
