import type { Db } from "@/lib/platform/db/client";
import { query } from "@/lib/platform/db/query";
import type { Chain } from "./chains";

export interface SandboxChainRegistration {
  chain: Chain;
  rpcUrl: string;
  chainId: number | null;
  tokenAddress: string;
  decimals: number;
  blockTimeMs: number;
  emulated: boolean;
  extra?: Record<string, string>;
}

/** Records where a running sandbox chain answers, so web and worker processes find it (upsert). */
export async function registerSandboxChain(db: Db, reg: SandboxChainRegistration): Promise<void> {
  await query(
    db,
    `insert into sandbox_chains
       (chain, rpc_url, extra, chain_id, token_address, decimals, block_time_ms, emulated, updated_at)
     values ($1, $2, $3, $4, $5, $6, $7, $8, now())
     on conflict (chain) do update set rpc_url = excluded.rpc_url, extra = excluded.extra, chain_id = excluded.chain_id,
       token_address = excluded.token_address, decimals = excluded.decimals, block_time_ms = excluded.block_time_ms,
       emulated = excluded.emulated, updated_at = now()`,
    [
      reg.chain,
      reg.rpcUrl,
      JSON.stringify(reg.extra ?? {}),
      reg.chainId,
      reg.tokenAddress,
      reg.decimals,
      reg.blockTimeMs,
      reg.emulated,
    ],
  );
}
