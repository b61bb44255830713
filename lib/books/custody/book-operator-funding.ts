import { formatUnits } from "viem";
import { CHAIN_SPECS } from "@/lib/chains/chain-registry";
import type { Chain } from "@/lib/chains/chains";
import { storedTxHash } from "@/lib/chains/family-traits";
import { roleAddress } from "@/lib/chains/wallets/role-address";
import type { WalletRole } from "@/lib/chains/wallets/wallet-roles";
import type { Mode } from "@/lib/kernel/mode";
import type { Db } from "@/lib/platform/db/client";
import { bookFunding } from "./book-funding";

export { FundingAlreadyBooked } from "./book-funding";

/** A signed decimal amount of a chain's native coin ("-0.25") in its base units, or null when malformed. */
export function parseNativeAmount(chain: Chain, text: string): bigint | null {
  const { decimals } = CHAIN_SPECS[chain].native;
  const m = /^(-?)(\d+)(?:\.(\d+))?$/.exec(text.trim());
  if (!m || (m[3]?.length ?? 0) > decimals) return null;
  const units = BigInt(m[2]! + (m[3] ?? "").padEnd(decimals, "0"));
  return m[1] ? -units : units;
}

/**
 * `cli custody fund`: what an operator gave the treasury or the sweeper outside the service (positive), or took
 * from it (negative: coins sent away with its key, the fee of a stake made with another wallet), booked so the
 * role's native coin reconciles to the unit (docs/CUSTODY.md, "Native coin, to the unit").
 */
export async function bookOperatorFunding(
  db: Db,
  input: { mode: Mode; chain: Chain; role: WalletRole; amount: bigint; txHash: string | null; note: string | null },
) {
  const { address } = await roleAddress(db, input.mode, input.chain, input.role);
  const txHash = input.txHash && storedTxHash(input.chain, input.txHash);
  const { id } = await bookFunding(db, { ...input, address, txHash, source: "operator" });
  const { symbol, decimals } = CHAIN_SPECS[input.chain].native;
  return {
    object: "custody_funding",
    id,
    mode: input.mode,
    chain: input.chain,
    role: input.role,
    address,
    amount: formatUnits(input.amount, decimals),
    symbol,
    tx_hash: txHash,
    note: input.note,
  };
}
