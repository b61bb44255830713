import { DomainError } from "@/lib/kernel/domain-error";
import type { Db } from "@/lib/platform/db/client";
import { congestWith } from "../chain-control-errors";
import type { ChainFamily } from "../chains";
import type { CongestLevel } from "../sandbox-chain-ops";
import { onSandboxChain, requireSandboxChain } from "./require-sandbox-chain";

export interface CongestInput {
  base_fee_gwei?: bigint;
  compute_unit_price?: bigint;
}

/**
 * POST /v1/sandbox/chains/:chain/congest. EVM chains: sets the next block's base fee, from which EIP-1559
 * moves it again block by block (an empty block lowers it by 1/8); anvil refuses a transaction priced under
 * it and drops one already in its pool at the next block. Solana: the other users' traffic pays this
 * compute-unit price in every block until set again ("0" ends it); a transaction offering less is held and
 * lands only if the price falls to its offer before its blockhash expires.
 */
export async function prepareCongest(db: Db, chain: string, body: CongestInput) {
  const { config, ops } = await requireSandboxChain(db, chain);
  const level = congestLevel(config.family, chain, body);
  return async () => {
    const congested = await onSandboxChain(chain, () => ops.congest(level));
    return {
      object: "sandbox_chain_congested" as const,
      chain,
      base_fee_per_gas: congested.baseFeePerGas?.toString() ?? null,
      compute_unit_price: congested.computeUnitPrice?.toString() ?? null,
      head: congested.head,
    };
  };
}

function congestLevel(family: ChainFamily, chain: string, body: CongestInput): CongestLevel {
  const wanted = family === "evm" ? "base_fee_gwei" : family === "solana" ? "compute_unit_price" : null;
  if (wanted === null) throw congestWith(null, chain);
  const other = wanted === "base_fee_gwei" ? "compute_unit_price" : "base_fee_gwei";
  if (body[other] !== undefined)
    throw new DomainError("invalid_request_error", `${other} does not apply to ${chain}: it takes ${wanted}.`, {
      param: other,
    });
  const value = body[wanted];
  if (value === undefined) throw congestWith(wanted, chain);
  return wanted === "base_fee_gwei" ? { baseFeeWei: value } : { computeUnitPrice: value };
}
