import type { Chain, ChainFamily } from "@/lib/kernel/chain-ids";

/** The key family each chain derives deposit addresses in, and the folder under lib/chains/ that speaks it. */
export type { ChainFamily };

/** Everything the service knows about one chain that is not configuration: one row per chain. */
export interface ChainSpec {
  family: ChainFamily;
  /** What a payer reads: the network's plain name and its token standard. */
  name: string;
  standard: string;
  /**
   * How USDT's issuer freezes an address there, as the service reads it before a payout, a refund or a sweep
   * (docs/CUSTODY.md "Frozen addresses"): Tether's `isBlackListed` (Ethereum, Tron), a frozen token account
   * (Solana); null where the service reads none (BNB Smart Chain's Binance-Peg USDT has no blacklist; Polygon's
   * USDT0 blocks through a role of its own: a transfer to a blocked address fails on chain).
   */
  issuerFreeze: "blacklist" | "token_account" | null;
  /** The coin that pays the chain's fees, and its decimals. */
  native: { symbol: string; decimals: number };
  /** The mainnet block explorer; `{tx}` / `{address}` are replaced (live mode only: sandbox chains are local). */
  explorer: { tx: string; address: string };
  live: {
    /** The real USDT contract (mint on Solana) and its decimals. */
    token: string;
    decimals: number;
    /** Confirmations before a payment is `confirmed` (docs/CHAINS.md explains each depth). */
    required: number;
    blockTimeMs: number;
    /** The EVM chain id a live transaction is signed for; null outside EVM. */
    chainId: number | null;
    /** The network a live RPC endpoint must serve (docs/CUSTODY.md, "Network identity"). */
    network: { id: string; name: string };
    /** EVM: the highest fee (gwei) the service's own transactions offer; `<CHAIN>_MAX_FEE_GWEI` overrides. */
    maxFeeGwei: number | null;
    /** Below this (USDT) a sweep's fee is not worth paying; `<CHAIN>_SWEEP_THRESHOLD` overrides. */
    sweepThresholdUsdt: bigint;
    /**
     * The smallest refund (USDT base units): above a transfer's usual fee to a fresh address, so no refund costs
     * the treasury more than it returns; `<CHAIN>_REFUND_MINIMUM` overrides.
     */
    refundMinimumUnits: bigint;
    /**
     * The smallest transfer to a deposit address that is credited (USDT base units): below it, dust (address
     * poisoning, spam) is recorded as `ignored_below_minimum` and held, not credited; `<CHAIN>_DEPOSIT_MINIMUM`
     * overrides.
     */
    depositMinimumUnits: bigint;
  };
}

/**
 * Confirmation depths follow each chain's finality: eth 12 (~2.5 min, past any reorg seen since the merge),
 * bnb 15 (fast finality needs ⅔ of validators within ~2 epochs; 15 blocks is past every observed reorg),
 * polygon 128 (Heimdall checkpoints; PoS reorgs of dozens of blocks happened before v1), tron 19 (solidified:
 * ⅔+1 of the 27 SRs), solana 32 slots (finalized, rooted by supermajority). Fee caps sit far above normal
 * fees. Sweep thresholds: eth gas is dear, polygon's cheap, Tron burns TRX for energy. Refund minimums sit above a
 * USDT transfer's fee to a fresh address: eth ~65k gas (≈1-5 USDT at 5-25 gwei), bnb and polygon cents, Tron 130k
 * energy burnt (≈3 USDT), Solana the payer's token account rent (≈0.4 USDT).
 */
export const CHAIN_SPECS: Record<Chain, ChainSpec> = {
  eth: {
    family: "evm",
    issuerFreeze: "blacklist",
    name: "Ethereum",
    standard: "ERC-20",
    native: { symbol: "ETH", decimals: 18 },
    explorer: { tx: "https://etherscan.io/tx/{tx}", address: "https://etherscan.io/address/{address}" },
    live: {
      token: "0xdAC17F958D2ee523a2206206994597C13D831ec7",
      decimals: 6,
      required: 12,
      blockTimeMs: 12_000,
      chainId: 1,
      network: { id: "1", name: "chain id 1" },
      maxFeeGwei: 200,
      sweepThresholdUsdt: 100n,
      refundMinimumUnits: 5_000_000n,
      depositMinimumUnits: 1_000_000n,
    },
  },
  bnb: {
    family: "evm",
    issuerFreeze: null,
    name: "BNB Smart Chain",
    standard: "BEP-20",
    native: { symbol: "BNB", decimals: 18 },
    explorer: { tx: "https://bscscan.com/tx/{tx}", address: "https://bscscan.com/address/{address}" },
    live: {
      token: "0x55d398326f99059fF775485246999027B3197955",
      decimals: 18,
      required: 15,
      blockTimeMs: 3_000,
      chainId: 56,
      network: { id: "56", name: "chain id 56" },
      maxFeeGwei: 20,
      sweepThresholdUsdt: 10n,
      refundMinimumUnits: 500_000n,
      depositMinimumUnits: 100_000n,
    },
  },
  polygon: {
    family: "evm",
    issuerFreeze: null,
    name: "Polygon",
    standard: "ERC-20",
    native: { symbol: "POL", decimals: 18 },
    explorer: { tx: "https://polygonscan.com/tx/{tx}", address: "https://polygonscan.com/address/{address}" },
    live: {
      token: "0xc2132D05D31c914a87C6611C10748AEb04B58e8F",
      decimals: 6,
      required: 128,
      blockTimeMs: 2_000,
      chainId: 137,
      network: { id: "137", name: "chain id 137" },
      maxFeeGwei: 2000,
      sweepThresholdUsdt: 5n,
      refundMinimumUnits: 100_000n,
      depositMinimumUnits: 100_000n,
    },
  },
  tron: {
    family: "tron",
    issuerFreeze: "blacklist",
    name: "Tron",
    standard: "TRC-20",
    native: { symbol: "TRX", decimals: 6 },
    explorer: { tx: "https://tronscan.org/#/transaction/{tx}", address: "https://tronscan.org/#/address/{address}" },
    live: {
      token: "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t",
      decimals: 6,
      required: 19,
      blockTimeMs: 3_000,
      chainId: null,
      // Tron's chain id is the last 4 bytes of its genesis block id (0x2b6653dc on mainnet).
      network: { id: "728126428", name: "chain id 728126428 (0x2b6653dc)" },
      maxFeeGwei: null,
      sweepThresholdUsdt: 20n,
      refundMinimumUnits: 3_000_000n,
      depositMinimumUnits: 1_000_000n,
    },
  },
  solana: {
    family: "solana",
    issuerFreeze: "token_account",
    name: "Solana",
    standard: "SPL",
    native: { symbol: "SOL", decimals: 9 },
    explorer: { tx: "https://solscan.io/tx/{tx}", address: "https://solscan.io/account/{address}" },
    live: {
      token: "Es9vMFrzaCERmJfrF4H2FYD4KCoNkY11McCe8BenwNYB",
      decimals: 6,
      required: 32,
      blockTimeMs: 400,
      chainId: null,
      network: {
        id: "5eykt4UsFv8P8NJdTREpY1vzqKqZKvdpKuc147dw2N9d",
        name: "genesis hash 5eykt4UsFv8P8NJdTREpY1vzqKqZKvdpKuc147dw2N9d",
      },
      maxFeeGwei: null,
      sweepThresholdUsdt: 5n,
      refundMinimumUnits: 500_000n,
      depositMinimumUnits: 100_000n,
    },
  },
};
