import type { Chain, ChainFamily } from "@/lib/chains/chains";

export interface BlockRef {
  number: number;
  hash: string;
  time: Date;
}

/** One movement of the USDT token, as read from the chain. */
export interface TokenTransfer {
  txHash: string;
  /** Position within the block, for chain order (EVM/Tron: the log index; Solana: as `position`). */
  logIndex: number;
  /**
   * Position within the transaction, the same wherever the transaction is mined (a reorganization may
   * include it again in another block, at another log index): with the chain and `txHash`, the transfer's
   * identity. EVM/Tron: the rank of the log among the token's Transfer logs of the transaction; Solana:
   * the index of the recipient's token account in the transaction.
   */
  position: number;
  blockNumber: number;
  blockHash: string;
  from: string | null;
  /** The recipient in the family's watch-key form (lib/chains/connect/watch-key.ts). */
  toKey: string;
  /** The token's own base units (e.g. 18 decimals on BNB Smart Chain). */
  rawAmount: bigint;
}

/** A deposit address an address-scanning adapter (Solana) checks, with what is already recorded for it. */
export interface WatchedAddress {
  key: string;
  /** Sum of the recorded (not orphaned) deposits' raw amounts: a balance above it means new funds. */
  recordedRaw: bigint;
  /** Transaction ids already recorded for it. */
  recordedTx: Set<string>;
}

/**
 * What the service needs of a chain family, identical in sandbox and live (only the configuration
 * differs): derive (lib/chains/wallets/derive-address.ts, by family), scan (`transfers` over a block range),
 * confirm (`head` and `blocks`, from which confirmations are counted and reorgs noticed) and transfer.
 */
export interface ChainAdapter {
  readonly chain: Chain;
  readonly family: ChainFamily;
  /**
   * Which network the endpoint serves: EVM the chain id (`1`), Tron its chain id (the last 4 bytes of the
   * genesis block id, `728126428` on mainnet), Solana the genesis hash.
   */
  network(): Promise<string>;
  /** The latest block (slot) number. */
  head(): Promise<number>;
  /** Headers of these blocks; a number the chain does not have (any more) maps to null. */
  blocks(numbers: number[]): Promise<Map<number, BlockRef | null>>;
  /**
   * Every transfer of the token in blocks `from`..`to` inclusive, in chain order (EVM, Tron: from the
   * token's logs). An adapter with `scansAddresses` instead reports the new transfers into the `watched`
   * addresses up to `to`, whatever their block (Solana has no cheap log of one token's transfers).
   */
  transfers(from: number, to: number, watched?: WatchedAddress[]): Promise<TokenTransfer[]>;
  readonly scansAddresses?: boolean;
  /**
   * The token's transfers in one transaction (`txHash` as the family writes it: 0x-hex on EVM, 64 hex on Tron, a
   * base58 signature on Solana), read from the block it is mined in, as `transfers` reports them; null when the
   * chain has no mined transaction of that id. For a rescan of one transaction the watcher may have missed.
   */
  transactionTransfers(txHash: string): Promise<TokenTransfer[] | null>;
  /**
   * Of the transfers matched to deposit addresses, those the service takes, where the check costs too much to
   * run on every transfer of the chain (Solana: into the owner's associated token account). Absent: all.
   */
  keepMatched?<T extends TokenTransfer>(matched: T[]): Promise<T[]>;
  /** An address's token balance (the token's base units) and native balance (wei, sun, lamports), at the head. */
  balances(address: string): Promise<{ token: bigint; native: bigint }>;
  /**
   * Whether USDT's issuer has frozen `address` (chain-registry.ts `issuerFreeze`): Tether's `isBlackListed` on
   * EVM and Tron, the owner's token account frozen on Solana. Throws when the chain cannot answer.
   */
  frozen(address: string): Promise<boolean>;
  /** Signs and sends `rawAmount` of the token from the key's account to `to`; returns the transaction id. */
  sendToken(privateKey: Uint8Array, to: string, rawAmount: bigint): Promise<string>;
}

/** Base units of the token → USDT base units (6 decimals), rounding down dust below 10^-6 USDT. */
export function toUsdtUnits(rawAmount: bigint, decimals: number): bigint {
  if (decimals === 6) return rawAmount;
  if (decimals > 6) return rawAmount / 10n ** BigInt(decimals - 6);
  return rawAmount * 10n ** BigInt(6 - decimals);
}

/** USDT base units → the token's base units. */
export function fromUsdtUnits(units: bigint, decimals: number): bigint {
  if (decimals >= 6) return units * 10n ** BigInt(decimals - 6);
  return units / 10n ** BigInt(6 - decimals);
}
