import { DomainError } from "@/lib/kernel/domain-error";
import { chainConfig, type ChainConfig } from "@/lib/chains/chain-config";
import { isChain, type Chain } from "@/lib/chains/chains";
import type { Db } from "@/lib/platform/db/client";
import { log } from "@/lib/platform/log";
import { sandboxChainOps } from "../connect/chain-families";
import type { SandboxChainOps } from "../sandbox-chain-ops";

/**
 * A sandbox helper split for the /v1 pipeline (lib/http/api/execute-phased-write.ts): its `prepare…` function
 * reads what it needs in the request's transaction and returns this call, which talks to the chain with no
 * database connection held (a faucet transfer or a simulation waits on receipts for seconds).
 */
export type ChainCall<T> = () => Promise<T>;

/** A running sandbox chain and its operations, or the domain error a caller can act on. */
export async function requireSandboxChain(
  db: Db,
  chain: string,
  param = "chain",
): Promise<{ config: ChainConfig; ops: SandboxChainOps }> {
  if (!isChain(chain)) throw new DomainError("not_found", `No such sandbox chain: '${chain.slice(0, 40)}'`, { param });
  const config = await chainConfig(db, "sandbox", chain as Chain);
  if (!config)
    throw new DomainError("chain_disabled", `The sandbox chain '${chain}' is not running on this service.`, { param });
  return { config, ops: await sandboxChainOps(config) };
}

/** Runs a call against a sandbox chain; a chain that does not answer is a server-side fault, said plainly. */
export async function onSandboxChain<T>(chain: string, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    if (err instanceof DomainError) throw err;
    log.error("sandbox chain call failed", { chain, error: err instanceof Error ? err.message : String(err) });
    throw new DomainError(
      "internal_server_error",
      `The sandbox chain '${chain}' did not complete the request; try again in a moment.`,
    );
  }
}
