import type { ChainConfig } from "@/lib/chains/chain-config";
import type { OutboundDriver } from "./driver";
import { EvmDriver } from "./evm-driver";
import { TronDriver } from "./tron-driver";

/** The outbound driver of a chain's family; null where the service cannot send yet. */
export function createOutboundDriver(config: ChainConfig): OutboundDriver | null {
  switch (config.family) {
    case "evm":
      return new EvmDriver(config);
    case "tron":
      return new TronDriver(config);
    default:
      return null;
  }
}
