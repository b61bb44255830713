import { type Address, isOffCurveAddress } from "@solana/kit";
import { base58 } from "@scure/base";
import { isChecksummedOrLowerAddress } from "./addresses/evm-address";
import { isTronAddress } from "./addresses/tron-address";
import type { Chain } from "./chains";

/**
 * Why `address` is not a valid destination on `chain`, or null when it is. EVM: 0x + 40 hex, with the
 * EIP-55 checksum enforced when the case is mixed; Tron: base58check with the 0x41 prefix; Solana: base58
 * of 32 bytes. The all-zero EVM address is refused: funds sent there are burnt.
 */
export function addressProblem(chain: Chain, address: string): string | null {
  switch (chain) {
    case "eth":
    case "bnb":
    case "polygon":
      if (!/^0x[0-9a-fA-F]{40}$/.test(address))
        return `to_address must be a 0x-prefixed 40-hex-digit address on ${chain}`;
      if (!isChecksummedOrLowerAddress(address))
        return "to_address has mixed case but fails its EIP-55 checksum; check for a typo";
      if (/^0x0{40}$/.test(address)) return "to_address is the zero address; funds sent there are lost";
      return null;
    case "tron":
      return isTronAddress(address) ? null : "to_address must be a Tron base58check address starting with T";
    case "solana": {
      try {
        if (base58.decode(address).length === 32) return null;
      } catch {
        /* not base58 */
      }
      return "to_address must be a base58 Solana address (32 bytes)";
    }
  }
}

/**
 * Why a valid `address` is not a wallet someone signs for, or null: a Solana address off the curve is a program's
 * account (a program-derived address), which no payer holds a key of. Worded for `param`.
 */
export function keyPairProblem(chain: Chain, address: string, param: string): string | null {
  if (chain === "solana" && isOffCurveAddress(address as Address))
    return `${param} is a program-derived address, not a wallet: give the wallet's address`;
  return null;
}
