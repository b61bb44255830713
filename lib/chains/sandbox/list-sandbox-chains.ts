import { sandboxChainConfigs } from "@/lib/chains/chain-config";
import type { Db } from "@/lib/platform/db/client";

/** GET /v1/sandbox/chains: where each local chain answers and how payments on it are confirmed. */
export async function listSandboxChains(db: Db) {
  const configs = await sandboxChainConfigs(db);
  return {
    object: "list" as const,
    data: configs.map((c) => ({
      object: "sandbox_chain" as const,
      chain: c.chain,
      emulated: c.emulated,
      rpc_url: c.rpcUrl,
      ...(c.chainId !== null ? { chain_id: c.chainId } : {}),
      token_address: c.tokenAddress,
      decimals: c.decimals,
      block_time_ms: c.blockTimeMs,
      confirmations_threshold: c.confirmations.threshold,
      confirmations_required: c.confirmations.required,
    })),
  };
}
