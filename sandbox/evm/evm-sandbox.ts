import fs from "node:fs";
import path from "node:path";
import { createPublicClient, http, type Address } from "viem";
import { freePort } from "@/lib/platform/db/embedded";
import { startAnvil, type RunningAnvil } from "./anvil";
import { deploySandboxToken, type TokenKind } from "./sandbox-token";

export type EvmSandboxChain = "eth" | "bnb" | "polygon";

/** Chain ids are not the mainnet ones (1, 56, 137), so no wallet mistakes a sandbox chain for the real one. */
export const EVM_SANDBOX: Record<EvmSandboxChain, { chainId: number; decimals: number; token: TokenKind }> = {
  eth: { chainId: 900_001, decimals: 6, token: "no_return" },
  bnb: { chainId: 900_056, decimals: 18, token: "standard" },
  polygon: { chainId: 900_137, decimals: 6, token: "standard" },
};

export interface SandboxChainInfo {
  chain: EvmSandboxChain;
  chainId: number;
  rpcUrl: string;
  token: Address;
  decimals: number;
}

interface Registry {
  chains: Partial<Record<EvmSandboxChain, { port: number; token?: Address }>>;
}

/**
 * One EVM sandbox chain: anvil on its remembered port with state under DATA_DIR/sandbox, and its USDT
 * token, deployed on first start (or again if the state was lost). The registry file remembers ports and
 * token addresses across restarts.
 */
export async function startEvmSandboxChain(
  dataDir: string,
  chain: EvmSandboxChain,
  opts: { blockTime: number },
): Promise<{ info: SandboxChainInfo; anvil: RunningAnvil }> {
  const dir = path.join(dataDir, "sandbox");
  fs.mkdirSync(dir, { recursive: true });
  const registryFile = path.join(dir, "evm-chains.json");
  const registry = readRegistry(registryFile);
  const entry = (registry.chains[chain] ??= { port: await freePort() });
  const config = EVM_SANDBOX[chain];
  const anvil = await startAnvil({
    chainId: config.chainId,
    port: entry.port,
    blockTime: opts.blockTime,
    stateFile: path.join(dir, `${chain}.state.json`),
    stateInterval: 1,
  });
  const client = createPublicClient({ transport: http(anvil.rpcUrl) });
  const deployed = entry.token ? await client.getCode({ address: entry.token }) : undefined;
  if (!entry.token || !deployed || deployed === "0x")
    entry.token = await deploySandboxToken(anvil.rpcUrl, config.token, config.decimals);
  writeRegistry(registryFile, registry);
  return {
    info: { chain, chainId: config.chainId, rpcUrl: anvil.rpcUrl, token: entry.token, decimals: config.decimals },
    anvil,
  };
}

function readRegistry(file: string): Registry {
  try {
    return JSON.parse(fs.readFileSync(file, "utf8")) as Registry;
  } catch {
    return { chains: {} };
  }
}

function writeRegistry(file: string, registry: Registry): void {
  // Re-read and merge: the three chains start concurrently and each writes its own entry.
  const current = readRegistry(file);
  fs.writeFileSync(file, JSON.stringify({ chains: { ...current.chains, ...registry.chains } }, null, 2));
}
