import type { ChainAdapter } from "../chain-adapter";
import type { ChainConfig } from "../chain-config";
import type { ChainFamily } from "../chain-registry";
import type { OutboundDriver } from "../outbound-driver";
import type { SandboxChainOps } from "../sandbox-chain-ops";
import { evmGasNeeded } from "../evm/evm-fees";
import { EvmAdapter } from "../evm/evm-adapter";
import { EvmDriver } from "../evm/evm-driver";
import { SolanaAdapter } from "../solana/solana-adapter";
import { SolanaDriver } from "../solana/solana-driver";
import { solanaTransactionLamports } from "../solana/solana-rent";
import { TronAdapter, tronJsonRpcUrl } from "../tron/tron-adapter";
import { TronDriver } from "../tron/tron-driver";
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
}

const NOTHING_STAKED = async () => 0n;

const CHAIN_FAMILIES: Record<ChainFamily, ChainFamilyModule> = {
  evm: {
    reader: (config) => new EvmAdapter(config.chain, config),
    writer: (config) => new EvmDriver(config),
    sandbox: async (config) => new (await import("../evm/anvil-ops")).AnvilOps(config),
    gasNeeded: evmGasNeeded,
    nativeStaked: NOTHING_STAKED,
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
  },
  solana: {
    reader: (config) => new SolanaAdapter(config.chain, config),
    writer: (config) => new SolanaDriver(config),
    sandbox: async (config) => new (await import("../solana/solana-ops")).SolanaOps(config),
    // The sweeper pays a deposit address's sweep, the rent of a new token account, and its priority fee.
    gasNeeded: async (config) => solanaTransactionLamports(config.maxComputeUnitPrice ?? 0n),
    nativeStaked: NOTHING_STAKED,
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
