/** Where a running sandbox Tron chain answers, and its token (tron-sandbox.ts starts it). */
export interface TronSandboxInfo {
  fullHost: string;
  jsonRpcUrl: string;
  anvilRpcUrl: string;
  /** T-address of the TRC-20 USDT. */
  token: string;
  /** The same token as a 0x… EVM address. */
  tokenHex: string;
  decimals: 6;
  blockTimeMs: number;
  /** Blocks from the head to the newest solidified one (/walletsolidity): the chain's finality depth. */
  solidLag: number;
}
