import type { ChainAdapter } from "../chain-adapter";
import type { ChainConfig } from "../chain-config";
import type { ChainFamily } from "../chain-registry";
import { CHAIN_FAMILY, type Chain } from "../chains";
import type { OutboundDriver } from "../outbound-driver";
import type { SweepGas } from "../outbound-intent";
import type { SandboxChainOps } from "../sandbox-chain-ops";
import { evmGasNeeded } from "../evm/evm-fees";
import { EvmAdapter } from "../evm/evm-adapter";
import { EvmDriver } from "../evm/evm-driver";
import { evmContractProblem, evmServiceContracts } from "../evm/evm-destination";
import { evmSweepGas } from "../evm/evm-sweep-gas";
import { SolanaAdapter } from "../solana/solana-adapter";
import { SolanaDriver } from "../solana/solana-driver";
import { solanaTokenAccountProblem } from "../solana/solana-destination";
import { solanaTransactionLamports } from "../solana/solana-rent";
import { TronAdapter, tronJsonRpcUrl } from "../tron/tron-adapter";
import { TronDriver } from "../tron/tron-driver";
import { tronSweepGas } from "../tron/tron-sweep-gas";
import { readTronResources, tronStakeSun } from "../tron/tron-account-resources";
import { TronNode } from "../tron/tron-node";

/**
 * What each chain family plugs in behind the ports (lib/chains/chain-adapter.ts, outbound-driver.ts,
 * sandbox-chain-ops.ts): its reader, its writer, its sandbox controls and the native coin one of its
 * transactions may cost. A new family is a folder under
 * lib/chains/ and a row here.
 */
interface ChainFamilyModule {
  reader(config: ChainConfig): ChainAdapter;
  writer(config: ChainConfig): OutboundDriver;
  /** Loaded when first asked for (a dynamic import): live code never loads the emulators' helpers. */
  sandbox(config: ChainConfig): Promise<SandboxChainOps>;
  /** The native coin (wei, sun, lamports) one of a role's transactions may cost at most, at today's fees. */
  gasNeeded(config: ChainConfig): Promise<bigint>;
  /** Native coin an address owns outside its balance (Tron: staked and unfreezing TRX); 0 elsewhere. */
  nativeStaked(config: ChainConfig, address: string): Promise<bigint>;
  /**
   * The gas a sweep of `raw` from a deposit address to `to` needs, and the top-up that gives it exactly that (or the
   * treasury's energy it is lent, Tron's `stake` strategy: `lendingInFlight` is the stake lent and not yet landed).
   */
  sweepGas(
    config: ChainConfig,
    from: string,
    to: string,
    raw: bigint,
    nativeBalance: bigint,
    lendingInFlight: () => Promise<bigint>,
  ): Promise<SweepGas>;
  /** Why USDT sent to `to` could never be moved again (a contract, a token account), asked of the network. */
  destinationProblem(config: ChainConfig, to: string): Promise<string | null>;
  /** The contracts the service deploys, from the family's wallet roles: never a destination. */
  ownContracts(roles: { chain: string; role: string; address: string }[]): string[];
}

const NOTHING_STAKED = async () => 0n;

const CHAIN_FAMILIES: Record<ChainFamily, ChainFamilyModule> = {
  evm: {
    reader: (config) => new EvmAdapter(config.chain, config),
    writer: (config) => new EvmDriver(config),
    sandbox: async (config) => new (await import("../evm/anvil-ops")).AnvilOps(config),
    gasNeeded: evmGasNeeded,
    nativeStaked: NOTHING_STAKED,
    sweepGas: evmSweepGas,
    destinationProblem: evmContractProblem,
    ownContracts: evmServiceContracts,
  },
  tron: {
    reader: (config) =>
      new TronAdapter(config.chain, {
        fullHost: config.rpcUrl,
        jsonRpcUrl: tronJsonRpcUrl(config),
        tokenAddress: config.tokenAddress,
      }),
    writer: (config) => new TronDriver(config),
    sandbox: async (config) => new (await import("../tron/tron-ops")).TronOps(config),
    // The most a TRC-20 transfer may burn (its fee_limit's cap).
    gasNeeded: async (config) => config.maxFeeLimitSun!,
    nativeStaked: async (config, address) => tronStakeSun(await readTronResources(new TronNode(config), address)),
    sweepGas: tronSweepGas,
    // Tron: the database's guards only (ownDestinationProblem); no network check.
    destinationProblem: async () => null,
    ownContracts: () => [],
  },
  solana: {
    reader: (config) => new SolanaAdapter(config.chain, config),
    writer: (config) => new SolanaDriver(config),
    sandbox: async (config) => new (await import("../solana/solana-ops")).SolanaOps(config),
    // The sweeper pays a deposit address's sweep, the rent of a new token account, and its priority fee.
    gasNeeded: async (config) => solanaTransactionLamports(config.maxComputeUnitPrice ?? 0n),
    nativeStaked: NOTHING_STAKED,
    // The sweeper pays the fee as fee payer: a deposit owner never holds SOL.
    sweepGas: async () => ({ topupRaw: 0n, options: {} }),
    destinationProblem: solanaTokenAccountProblem,
    ownContracts: () => [],
  },
};

/** The adapter (reader) for a chain's family, built from its configuration (sandbox or live alike). */
export const createChainAdapter = (config: ChainConfig): ChainAdapter => CHAIN_FAMILIES[config.family].reader(config);

/** The outbound driver (writer) of a chain's family. */
export const createOutboundDriver = (config: ChainConfig): OutboundDriver =>
  CHAIN_FAMILIES[config.family].writer(config);

/**
 * What the sandbox helpers do to a local chain: plain anvils for EVM, the emulators' facades otherwise. Loaded on
 * first use, so no live code path carries the emulators (`npm run lint` checks it).
 */
export const sandboxChainOps = (config: ChainConfig): Promise<SandboxChainOps> =>
  CHAIN_FAMILIES[config.family].sandbox(config);

/**
 * The native coin one of a role's transactions may cost at most, at today's fees: below it, the treasury
 * cannot pay a payout nor the sweeper a sweep or a top-up (docs/CUSTODY.md, "Reconciliation").
 */
export const gasNeeded = (config: ChainConfig): Promise<bigint> => CHAIN_FAMILIES[config.family].gasNeeded(config);

/** Native coin an address owns beyond its balance: Tron's staked and unfreezing TRX (sun); 0 on other families. */
export const nativeStaked = (config: ChainConfig, address: string): Promise<bigint> =>
  CHAIN_FAMILIES[config.family].nativeStaked(config, address);

/** The gas a sweep from a deposit address needs and the top-up that gives it (docs/CUSTODY.md, "Sweeps"). */
export const sweepGasPlan = (
  config: ChainConfig,
  sweep: { from: string; to: string; raw: bigint; nativeBalance: bigint },
  lendingInFlight: () => Promise<bigint>,
) =>
  CHAIN_FAMILIES[config.family].sweepGas(config, sweep.from, sweep.to, sweep.raw, sweep.nativeBalance, lendingInFlight);

/** Why USDT sent to `to` on the chain could never be moved again, or null: a network read, outside transactions. */
export const destinationProblem = (config: ChainConfig, to: string) =>
  CHAIN_FAMILIES[config.family].destinationProblem(config, to);

/** The addresses of the contracts the service deploys on `chain`, from its family's wallet roles. */
export const ownContracts = (chain: Chain, roles: { chain: string; role: string; address: string }[]) =>
  CHAIN_FAMILIES[CHAIN_FAMILY[chain]].ownContracts(roles);
