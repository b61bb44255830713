import { type AppConfig, config } from "@/lib/platform/config/env";
import type { SolanaDetection, TronEnergyStrategy } from "@/lib/platform/config/env-schema";
import type { Db } from "@/lib/platform/db/client";
import { query } from "@/lib/platform/db/query";
import type { Mode } from "@/lib/kernel/mode";
import { CHAIN_SPECS } from "./chain-registry";
import { CHAIN_FAMILY, enabledChains, type Chain, type ChainFamily } from "./chains";

/** Everything a watcher and the sandbox helpers need to know about one chain in one mode. */
export interface ChainConfig {
  mode: Mode;
  chain: Chain;
  family: ChainFamily;
  rpcUrl: string;
  /** Family-specific endpoints (tron: jsonRpcUrl; sandbox tron and solana: the backing runtime). */
  extra: Record<string, string>;
  chainId: number | null;
  tokenAddress: string;
  /** The token's on-chain decimals (USDT on BNB Smart Chain has 18; the API always speaks 6). */
  decimals: number;
  blockTimeMs: number;
  emulated: boolean;
  /** `threshold`: confirmations at which a payment becomes `confirming`; `required`: `confirmed`. */
  confirmations: { threshold: number; required: number };
  /** EVM: the highest maxFeePerGas (wei) the service's own transactions may offer; null elsewhere. */
  maxFeeWei: bigint | null;
  /** Tron: the most sun one transfer may burn (its fee_limit's cap, TRON_MAX_FEE_TRX); null elsewhere. */
  maxFeeLimitSun: bigint | null;
  /**
   * Solana: the highest compute-unit price (micro-lamports) a transaction may offer (SOLANA_MAX_COMPUTE_UNIT_PRICE).
   */
  maxComputeUnitPrice: bigint | null;
  /** Solana: how deposits are found (SOLANA_DETECTION: `blocks`, or `accounts` polling); null elsewhere. */
  solanaDetection: SolanaDetection | null;
  /** Tron: where transfers' energy comes from (the treasury's stake, or TRX burnt); null elsewhere. */
  tronEnergyStrategy: TronEnergyStrategy | null;
  /** EVM, live: the sanctions oracle payouts' destinations are checked against (`<CHAIN>_SANCTIONS_ORACLE`). */
  sanctionsOracle: string | null;
}

/** Live fee caps are the chain registry's (`<CHAIN>_MAX_FEE_GWEI` overrides); the sandbox's: 1000 gwei. */
const SANDBOX_MAX_FEE_GWEI = 1000;

function maxFeeWei(chain: Chain, mode: Mode, cfg: AppConfig): bigint | null {
  if (CHAIN_FAMILY[chain] !== "evm") return null;
  const gwei =
    cfg.chains[chain].maxFeeGwei ?? (mode === "sandbox" ? SANDBOX_MAX_FEE_GWEI : CHAIN_SPECS[chain].live.maxFeeGwei!);
  // Configuration, not money: a gwei figure with at most 9 decimals converts to whole wei exactly.
  return BigInt(Math.round(gwei * 1e9));
}

/** A payment is `confirming` from its second confirmation (one block built on the transfer's block). */
const THRESHOLD = 2;

function confirmations(required: number) {
  return { threshold: Math.min(THRESHOLD, required), required };
}

/** Live configuration from the environment (`<CHAIN>_RPC_URL`, `<CHAIN>_USDT_CONTRACT`, `<CHAIN>_CONFIRMATIONS`). */
export function liveChainConfig(chain: Chain, cfg: AppConfig = config()): ChainConfig | null {
  if (!enabledChains("live", cfg).includes(chain)) return null;
  const set = cfg.chains[chain];
  const defaults = CHAIN_SPECS[chain].live;
  return {
    mode: "live",
    chain,
    family: CHAIN_FAMILY[chain],
    rpcUrl: set.rpcUrl!,
    // Without TRON_JSONRPC_URL, Tron's /jsonrpc is on the HTTP API's host (tronJsonRpcUrl, tron-adapter.ts).
    extra: chain === "tron" && cfg.tronJsonRpcUrl ? { jsonRpcUrl: cfg.tronJsonRpcUrl } : {},
    chainId: defaults.chainId,
    tokenAddress: set.usdtContract ?? defaults.token,
    decimals: set.usdtDecimals ?? defaults.decimals,
    blockTimeMs: defaults.blockTimeMs,
    emulated: false,
    confirmations: confirmations(set.confirmations ?? defaults.required),
    maxFeeWei: maxFeeWei(chain, "live", cfg),
    maxFeeLimitSun: CHAIN_FAMILY[chain] === "tron" ? cfg.tronMaxFeeSun : null,
    maxComputeUnitPrice: CHAIN_FAMILY[chain] === "solana" ? cfg.solanaMaxComputeUnitPrice : null,
    solanaDetection: CHAIN_FAMILY[chain] === "solana" ? cfg.solanaDetection : null,
    tronEnergyStrategy: CHAIN_FAMILY[chain] === "tron" ? cfg.tronEnergyStrategy.live : null,
    sanctionsOracle: set.sanctionsOracle ?? null,
  };
}

interface SandboxRow {
  chain: Chain;
  rpc_url: string;
  extra: string;
  chain_id: string | null;
  token_address: string;
  decimals: number;
  block_time_ms: number;
  emulated: boolean;
}

const cache = globalThis as unknown as { __usdtSandboxChains?: { at: number; rows: Promise<SandboxRow[]> } };

/** The registered sandbox chains (scripts/start-chains.ts registers them), cached for a few seconds. */
async function sandboxRows(db: Db, fresh = false): Promise<SandboxRow[]> {
  const hit = cache.__usdtSandboxChains;
  if (!fresh && hit && Date.now() - hit.at < 3_000) return hit.rows;
  const rows = query<SandboxRow>(
    db,
    "select chain, rpc_url, extra, chain_id::text, token_address, decimals, block_time_ms, emulated " +
      "from sandbox_chains order by chain",
  );
  cache.__usdtSandboxChains = { at: Date.now(), rows };
  rows.catch(() => (cache.__usdtSandboxChains = undefined));
  return rows;
}

/**
 * Sandbox confirmations. EVM: small, so a payment confirms in seconds (`SANDBOX_CONFIRMATIONS`, default
 * 4). The emulated chains keep their own finality, which is what their facades report and their registration
 * records (`finalityDepth`): tron 19 blocks (solidified, /walletsolidity), solana 32 slots (finalized), unless
 * the sandbox was started with a shallower depth (the test stack's, so its tests wait for events, not blocks).
 */
export function sandboxConfirmations(chain: Chain, cfg: AppConfig = config(), extra: Record<string, string> = {}) {
  if (CHAIN_FAMILY[chain] === "evm") return confirmations(cfg.sandboxConfirmations);
  const registered = Number(extra.finalityDepth);
  return confirmations(Number.isInteger(registered) && registered > 0 ? registered : CHAIN_SPECS[chain].live.required);
}

export async function sandboxChainConfigs(db: Db, opts: { fresh?: boolean } = {}): Promise<ChainConfig[]> {
  return (await sandboxRows(db, opts.fresh)).map((row) => sandboxChainConfig(row));
}

function sandboxChainConfig(row: SandboxRow): ChainConfig {
  const extra = JSON.parse(row.extra) as Record<string, string>;
  return {
    mode: "sandbox",
    chain: row.chain,
    family: CHAIN_FAMILY[row.chain],
    rpcUrl: row.rpc_url,
    extra,
    chainId: row.chain_id === null ? null : Number(row.chain_id),
    tokenAddress: row.token_address,
    decimals: row.decimals,
    blockTimeMs: row.block_time_ms,
    emulated: row.emulated,
    confirmations: sandboxConfirmations(row.chain, config(), extra),
    maxFeeWei: maxFeeWei(row.chain, "sandbox", config()),
    maxFeeLimitSun: CHAIN_FAMILY[row.chain] === "tron" ? config().tronMaxFeeSun : null,
    maxComputeUnitPrice: CHAIN_FAMILY[row.chain] === "solana" ? config().solanaMaxComputeUnitPrice : null,
    solanaDetection: CHAIN_FAMILY[row.chain] === "solana" ? config().solanaDetection : null,
    tronEnergyStrategy: CHAIN_FAMILY[row.chain] === "tron" ? config().tronEnergyStrategy.sandbox : null,
    sanctionsOracle: null,
  };
}

/** One chain's configuration in a mode, or null when it is not enabled / not running. */
export async function chainConfig(
  db: Db,
  mode: Mode,
  chain: Chain,
  opts: { fresh?: boolean } = {},
): Promise<ChainConfig | null> {
  if (mode === "live") return liveChainConfig(chain);
  return (await sandboxChainConfigs(db, opts)).find((c) => c.chain === chain) ?? null;
}

/** The configurations of the chains enabled in a mode (in sandbox: those running), in the chains' order. */
export async function enabledChainConfigs(db: Db, mode: Mode): Promise<ChainConfig[]> {
  const configs = await Promise.all(enabledChains(mode).map((chain) => chainConfig(db, mode, chain)));
  return configs.filter((c): c is ChainConfig => c !== null);
}

/**
 * The RPC endpoint a payer's browser wallet is given, or null. Live RPC URLs often carry provider keys, so only
 * Solana's public endpoint goes to browsers (its wallet adapter needs a recent blockhash); EVM and Tron wallets
 * use their own nodes. Sandbox chains are local: their URL is the chain's.
 */
export function walletRpcUrl(chain: ChainConfig, cfg: AppConfig = config()): string | null {
  if (chain.mode === "sandbox") return chain.rpcUrl;
  return chain.family === "solana" ? cfg.solanaPublicRpcUrl : null;
}
