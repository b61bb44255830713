import type { ChainAdapter } from "@/lib/chains/chain-adapter";
import type { WatchScope } from "@/lib/money-in/deposits/watch-scope";

export interface ScanTarget extends WatchScope {
  adapter: ChainAdapter;
  /** Most blocks read by one scan (backfill proceeds in steps of this size). */
  maxBlocksPerScan: number;
  /** Where a watcher with no cursor starts: the chain's first block (sandbox) or its head (live). */
  startAt: "genesis" | "head";
  /** How many recent block hashes are kept to find where a reorganized chain diverged. */
  keepBlocks: number;
}
