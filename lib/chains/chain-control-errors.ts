import { DomainError } from "@/lib/kernel/domain-error";

/** The congest and drop helpers work on anvil's fee market and pool; the emulated chains have neither to offer. */
export function evmChainsOnly(action: string, chain: string): DomainError {
  return new DomainError(
    "invalid_request_error",
    `${action} works on the EVM sandbox chains only (eth, bnb, polygon), not on the emulated ${chain} chain.`,
    { param: "chain" },
  );
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
