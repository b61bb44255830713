import { toEvm } from "./address";
import { weiToSun, type FacadeContext } from "./context";
import { type ContractType, isStakeContract } from "./tron-proto";

/** java-tron's upper bound for fee_limit (15,000 TRX). */
export const MAX_FEE_LIMIT = 15_000_000_000;

/**
 * The checks java-tron's actuators make before executing (CONTRACT_VALIDATE_ERROR), as far as they apply without
 * emulating accounts, energy or bandwidth. Returns the java-tron message, or null when valid.
 */
export async function validateContract(
  ctx: FacadeContext,
  type: ContractType,
  value: Record<string, unknown>,
  feeLimit = 0,
): Promise<string | null> {
  // Stake 2.0 contracts are validated with the owner's stake state when charged (stake.ts).
  if (isStakeContract(type)) return null;
  const owner = toEvm(String(value.owner_address));
  const balanceSun = async () => weiToSun(await ctx.rpc<string>("eth_getBalance", [owner, "latest"]));
  if (type === "TransferContract") {
    const to = toEvm(String(value.to_address));
    const amount = BigInt(Number(value.amount ?? 0));
    if (amount <= 0n) return "Amount must be greater than 0.";
    if (to === owner) return "Cannot transfer TRX to yourself.";
    if ((await ctx.rpc<string>("eth_getCode", [to, "latest"])) !== "0x")
      return "Cannot transfer TRX to a smartContract.";
    if ((await balanceSun()) < amount) return "Validate TransferContract error, balance is not sufficient.";
    return null;
  }
  if (feeLimit < 0 || feeLimit > MAX_FEE_LIMIT) return `feeLimit must be >= 0 and <= ${MAX_FEE_LIMIT}`;
  if ((await ctx.rpc<string>("eth_getCode", [toEvm(String(value.contract_address)), "latest"])) === "0x")
    return "No contract or not a valid smart contract";
  const callValue = BigInt(Number(value.call_value ?? 0));
  if (callValue > 0n && (await balanceSun()) < callValue)
    return "Validate InternalTransfer error, balance is not sufficient.";
  return null;
}
