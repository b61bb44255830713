import { z } from "zod";
import { CHAINS, type Chain } from "@/lib/kernel/chain-ids";
import { absoluteUrl, oneOf, positiveInt, positiveNumber, text, usdtAmount } from "./env-fields";

/** How EVM deposit addresses are swept (docs/CUSTODY.md, "Sweeps"): gas top-ups, or batched EIP-7702 sweeps. */
export const SWEEP_STRATEGIES = ["topup", "batch7702"] as const;
export type SweepStrategy = (typeof SWEEP_STRATEGIES)[number];
/**
 * How EVM payouts are sent (docs/PAYOUTS.md, "Batched payouts"): one transfer each, or the payouts waiting
 * together in one transaction of the treasury through the PayoutBatcher. `batch7702`, the name of the first
 * (delegated) design, is still read as `batch`.
 */
export const PAYOUT_STRATEGIES = ["single", "batch", "batch7702"] as const;
export type PayoutStrategy = Exclude<(typeof PAYOUT_STRATEGIES)[number], "batch7702">;
export const payoutStrategyOf = (value: (typeof PAYOUT_STRATEGIES)[number]): PayoutStrategy =>
  value === "batch7702" ? "batch" : value;
const STRATEGIES = [...SWEEP_STRATEGIES, ...PAYOUT_STRATEGIES];
const mapDefined = <T, U>(value: T | undefined, fn: (v: T) => U) => (value === undefined ? undefined : fn(value));
/** The chains EIP-7702 can exist on (lib/chains/chains.ts has the families, but reads this configuration). */
const EVM_CHAINS: readonly Chain[] = ["eth", "bnb", "polygon"];

/** What the operator set for one live chain; unset fields take the chain's defaults (lib/chains/chain-config.ts). */
export interface LiveChainEnv {
  /** The chain is enabled live when this is set (and the live seed is configured). */
  rpcUrl: string | undefined;
  confirmations: number | undefined;
  usdtContract: string | undefined;
  usdtDecimals: number | undefined;
  /** Live: the USDT a deposit address must hold before it is swept (base units). */
  sweepThreshold: bigint | undefined;
  /** Live: the smallest refund (USDT base units) on the chain. */
  refundMinimum: bigint | undefined;
  /** Live: the smallest transfer to a deposit address that is credited (USDT base units). */
  depositMinimum: bigint | undefined;
  /** EVM: the cap on maxFeePerGas (gwei) that fee replacements never exceed. */
  maxFeeGwei: number | undefined;
  /**
   * EVM, both modes: how deposit addresses are swept (the default is per chain,
   * lib/money-out/sweeps/sweep-strategy.ts).
   */
  sweepStrategy: SweepStrategy | undefined;
  /** EVM, both modes: how payouts are sent (the default is per mode, lib/money-out/payouts/payout-strategy.ts). */
  payoutStrategy: PayoutStrategy | undefined;
  /** EVM, live: a sanctions oracle contract (`isSanctioned(address)`) consulted for every payout's destination. */
  sanctionsOracle: string | undefined;
}

/** The variables every chain has, as `<CHAIN>_<SUFFIX>` (ETH_RPC_URL, BNB_CONFIRMATIONS, …). */
const PER_CHAIN = {
  RPC_URL: absoluteUrl(undefined),
  CONFIRMATIONS: positiveInt(undefined),
  USDT_CONTRACT: text(undefined),
  USDT_DECIMALS: positiveInt(undefined),
  MAX_FEE_GWEI: positiveNumber(undefined),
  SWEEP_THRESHOLD: usdtAmount(undefined),
  REFUND_MINIMUM: usdtAmount(undefined),
  DEPOSIT_MINIMUM: usdtAmount(undefined),
  SWEEP_STRATEGY: oneOf(SWEEP_STRATEGIES, undefined),
  PAYOUT_STRATEGY: oneOf(PAYOUT_STRATEGIES, undefined),
  SANCTIONS_ORACLE: text(undefined),
};
type Suffix = keyof typeof PER_CHAIN;

export function chainVariable(chain: Chain, suffix: Suffix): string {
  return `${chain.toUpperCase()}_${suffix}`;
}

const shape = Object.fromEntries(
  CHAINS.flatMap((chain) =>
    (Object.keys(PER_CHAIN) as Suffix[]).map((suffix) => [chainVariable(chain, suffix), PER_CHAIN[suffix]]),
  ),
);

/** Every chain's variables, parsed from one list of chains into `{ chains: { eth: {...}, … } }`. */
export const chainEnvSchema = z.object(shape).transform((vars, ctx) => {
  const read = <T>(chain: Chain, suffix: Suffix) => vars[chainVariable(chain, suffix)] as T | undefined;
  const chains = Object.fromEntries(
    CHAINS.map((chain): [Chain, LiveChainEnv] => [
      chain,
      {
        rpcUrl: read<string>(chain, "RPC_URL"),
        confirmations: read<number>(chain, "CONFIRMATIONS"),
        usdtContract: read<string>(chain, "USDT_CONTRACT"),
        usdtDecimals: read<number>(chain, "USDT_DECIMALS"),
        maxFeeGwei: read<number>(chain, "MAX_FEE_GWEI"),
        sweepThreshold: read<bigint>(chain, "SWEEP_THRESHOLD"),
        refundMinimum: read<bigint>(chain, "REFUND_MINIMUM"),
        depositMinimum: read<bigint>(chain, "DEPOSIT_MINIMUM"),
        sweepStrategy: read<SweepStrategy>(chain, "SWEEP_STRATEGY"),
        payoutStrategy: mapDefined(
          read<(typeof PAYOUT_STRATEGIES)[number]>(chain, "PAYOUT_STRATEGY"),
          payoutStrategyOf,
        ),
        sanctionsOracle: read<string>(chain, "SANCTIONS_ORACLE"),
      },
    ]),
  ) as Record<Chain, LiveChainEnv>;
  // Batches are EVM contracts: Tron's top-ups and Solana's fee payer are their only ways.
  for (const chain of CHAINS)
    for (const [suffix, fallback] of [
      ["SWEEP_STRATEGY", "topup"],
      ["PAYOUT_STRATEGY", "single"],
    ] as const) {
      const chosen = read<string>(chain, suffix);
      const known = (STRATEGIES as readonly (string | undefined)[]).includes(chosen);
      if (!EVM_CHAINS.includes(chain) && known && chosen !== fallback)
        ctx.addIssue({
          code: "custom",
          path: [chainVariable(chain, suffix)],
          message: `must be ${fallback} (${chosen} needs an EVM chain)`,
        });
    }
  for (const chain of CHAINS) {
    const oracle = chains[chain].sanctionsOracle;
    if (oracle !== undefined && (!EVM_CHAINS.includes(chain) || !/^0x[0-9a-fA-F]{40}$/.test(oracle)))
      ctx.addIssue({
        code: "custom",
        path: [chainVariable(chain, "SANCTIONS_ORACLE")],
        message: EVM_CHAINS.includes(chain)
          ? "must be a contract address (0x followed by 40 hex digits)"
          : "is for EVM chains only (eth, bnb, polygon)",
      });
  }
  return { chains };
});

export const CHAIN_VARIABLES: readonly string[] = Object.keys(shape);
