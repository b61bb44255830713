import type { Abi } from "viem";
import type { Rpc } from "./anvil-rpc";
import type { TronAccounts } from "./accounts";
import type { TronChainParameters } from "./resources";
import type { TxIndex } from "./tx-index";

/** 1 sun = 10^12 wei: TRX has 6 decimals, anvil's native coin 18, so balances map exactly. */
export const WEI_PER_SUN = 10n ** 12n;
export const sunToWei = (sun: bigint | number): bigint => BigInt(sun) * WEI_PER_SUN;
export const weiToSun = (wei: bigint | string): bigint => BigInt(wei) / WEI_PER_SUN;

/** What the facade's handlers share. */
export interface FacadeContext {
  rpc: Rpc;
  index: TxIndex;
  chainId: number;
  /** The sandbox TRC-20 (41-hex) and its ABI, so /wallet/getcontract can serve TronWeb's contract().at(). */
  token: { hex: string; abi: Abi };
  /** Which accounts exist, and their bandwidth, energy and stake. */
  accounts: TronAccounts;
  /** The committee parameters it charges by (mainnet's unless a test overrides some). */
  parameters: TronChainParameters;
  /** Blocks between the head and the newest solidified block (19 on mainnet, DEFAULT_SOLID_LAG). */
  solidLag: number;
}

/** Reads on /walletsolidity see the chain only up to `maxBlock`; full-node reads see everything. */
export interface View {
  visible: boolean;
  /** The newest block this view shows: the head, or head − solidLag on /walletsolidity. */
  top: number;
  /** Number.MAX_SAFE_INTEGER on the full node (a block mined mid-request is fine), `top` when solidified. */
  maxBlock: number;
  solid: boolean;
}
