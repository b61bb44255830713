export type CongestLevel = { baseFeeWei: bigint } | { computeUnitPrice: bigint };
export interface Congested {
  head: number;
  baseFeePerGas: bigint | null;
  computeUnitPrice: bigint | null;
}

/**
 * What the sandbox helpers do to a local chain, per family: the EVM sandboxes are plain anvils, the
 * emulated chains (tron, solana) go through their facades.
 */
export interface SandboxChainOps {
  /** Test USDT (token base units) and native gas to an address; returns the funding transaction's id. */
  fund(address: string, rawAmount: bigint): Promise<string>;
  /**
   * Native coin only (1 ETH, 100 TRX, 1 SOL), by a transfer from the local chain's faucet that has landed when
   * this resolves: the exact amount and transaction the custody books record for a role it funds.
   */
  fundNative(address: string): Promise<{ txHash: string; amount: bigint }>;
  /** A real transfer from a fresh, funded payer wallet to `to`; returns payer and transaction id. */
  payFromSandboxWallet(to: string, rawAmount: bigint): Promise<{ from: string; txHash: string }>;
  /** Produces blocks (slots) at once; returns the new head. */
  mine(blocks: number): Promise<number>;
  /** Replaces the newest blocks with empty ones; returns the new head. */
  reorg(depth: number): Promise<number>;
  /**
   * Makes the sandbox token refuse (or again accept) transfers to `address`, once the returned transaction
   * is final; null when the address already was in that state. A token without the control is a DomainError.
   */
  setFrozen(address: string, frozen: boolean): Promise<string | null>;
  /**
   * Congests the chain's fee market: the next block's base fee on EVM chains, the compute-unit price the
   * others' traffic pays on Solana. Returns what was set and the current head (slot).
   */
  congest(level: CongestLevel): Promise<Congested>;
  /** Removes a not yet mined transaction from the node's pool (EVM only); false when it was not there. */
  dropTransaction(txHash: string): Promise<boolean>;
}
