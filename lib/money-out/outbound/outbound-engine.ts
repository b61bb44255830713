import type { ChainAdapter } from "@/lib/chains/chain-adapter";
import type { ChainConfig } from "@/lib/chains/chain-config";
import type { IntentKeys, OutboundDriver } from "@/lib/chains/outbound-driver";
import type { OutboundRow } from "./outbound-row";

/** What one (mode, chain) leader tracks with. */
export interface OutboundEngine {
  config: ChainConfig;
  adapter: ChainAdapter;
  driver: OutboundDriver;
  /** The keys an intent's candidates are signed with (only the signing worker holds them). */
  keysOf(intent: OutboundRow): Promise<IntentKeys>;
  replaceAfterBlocks: number;
  maxResigns: number;
}

export interface TickContext {
  head: number;
  /** The newest block at the chain's confirmation depth: what happened there is final. */
  confirmedHead: number;
}
