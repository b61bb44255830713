import type { Db } from "@/lib/platform/db/client";
import { onSandboxChain, requireSandboxChain } from "./require-sandbox-chain";

/** POST /v1/sandbox/chains/:chain/mine: mines blocks at once (confirmations without waiting). */
export async function prepareMine(db: Db, chain: string, blocks: number) {
  const { ops } = await requireSandboxChain(db, chain);
  return async () => {
    const head = await onSandboxChain(chain, () => ops.mine(blocks));
    return { object: "sandbox_chain_mined" as const, chain, blocks, head };
  };
}

/** POST /v1/sandbox/chains/:chain/reorg: replaces the newest `depth` blocks with empty ones (anvil_reorg). */
export async function prepareReorg(db: Db, chain: string, depth: number) {
  const { ops } = await requireSandboxChain(db, chain);
  return async () => {
    const head = await onSandboxChain(chain, () => ops.reorg(depth));
    return { object: "sandbox_chain_reorganized" as const, chain, depth, head };
  };
}
