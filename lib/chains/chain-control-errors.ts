import { DomainError } from "@/lib/kernel/domain-error";

/** The drop helper works on anvil's pool; the emulated chains have none to offer. */
export function evmChainsOnly(action: string, chain: string): DomainError {
  return new DomainError(
    "invalid_request_error",
    `${action} works on the EVM sandbox chains only (eth, bnb, polygon), not on the emulated ${chain} chain.`,
    { param: "chain" },
  );
}

/** Congestion is a base fee on EVM chains and a compute-unit price on Solana; the emulated Tron has no fee market. */
export function congestWith(field: "base_fee_gwei" | "compute_unit_price" | null, chain: string): DomainError {
  if (field === null)
    return new DomainError(
      "invalid_request_error",
      "congest works on the EVM sandbox chains (base_fee_gwei) and solana (compute_unit_price), " +
        `not on ${chain}: its fees are resources, not a market.`,
      { param: "chain" },
    );
  return new DomainError("invalid_request_error", `${field} is required to congest ${chain}.`, { param: field });
}

/** A sandbox token made before the freeze control existed (a data dir from an older version) cannot freeze. */
export function tokenCannotFreeze(chain: string, why: string): DomainError {
  return new DomainError(
    "invalid_request_error",
    `The sandbox token on ${chain} cannot freeze addresses: ${why}. ` +
      "Reset that chain's state under DATA_DIR/sandbox and restart to get a token that can.",
    { param: "chain" },
  );
}
