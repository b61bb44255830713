import { FEE_LIMIT_MARGIN_PERCENT, TOKEN_TRANSFER_BYTES } from "./tron-fees";
import { big, type ResourceAnswer } from "./tron-account-resources";
import type { TronNode } from "./tron-node";

const SUN_PER_TRX = 1_000_000n;

const ceilDiv = (a: bigint, b: bigint) => (a + b - 1n) / b;

/**
 * The stake (sun, whole TRX) whose energy covers `energy` with the fee margin, at the network's ratio now: java-tron
 * gives a stake `TRX × TotalEnergyLimit / TotalEnergyWeight` energy a day (truncated), so one TRX more absorbs the
 * rounding; the margin absorbs a rise of the contract's dynamic energy or of the network's weight before it is used.
 */
export function stakeForEnergy(energy: bigint, totalLimit: bigint, totalWeight: bigint): bigint {
  if (totalLimit <= 0n || totalWeight <= 0n)
    throw new Error("the node reports no TotalEnergyLimit / TotalEnergyWeight");
  const trx = ceilDiv(energy * FEE_LIMIT_MARGIN_PERCENT * totalWeight, 100n * totalLimit) + 1n;
  return trx * SUN_PER_TRX;
}

/** What lending energy from `staker` to `receiver` for a transfer of `energy` takes, as the node reports it now. */
export interface EnergyLendingQuote {
  /** The stake to delegate (sun). */
  stakeSun: bigint;
  /** What the staker can delegate now (getcandelegatedmaxsize), before the journal's delegations still on their way. */
  lendableSun: bigint;
  /** The receiver has an account (a TRC-20 credit creates none; a delegation to a missing account is refused). */
  receiverExists: boolean;
  /** The receiver's free bandwidth covers one TRC-20 transfer (a new account has its whole daily allowance). */
  receiverHasFreeBandwidth: boolean;
}

export async function quoteEnergyLending(
  node: TronNode,
  staker: string,
  receiver: string,
  energy: bigint,
): Promise<EnergyLendingQuote> {
  const [stakerResources, lendable, account, receiverResources] = await Promise.all([
    node.wallet<ResourceAnswer>("getaccountresource", { address: staker, visible: true }),
    node.wallet<{ max_size?: number }>("getcandelegatedmaxsize", { owner_address: staker, type: 1, visible: true }),
    node.wallet<{ address?: string }>("getaccount", { address: receiver, visible: true }),
    node.wallet<ResourceAnswer>("getaccountresource", { address: receiver, visible: true }),
  ]);
  const receiverExists = Boolean(account.address);
  const freeLeft = big(receiverResources.freeNetLimit) - big(receiverResources.freeNetUsed);
  return {
    stakeSun: stakeForEnergy(energy, big(stakerResources.TotalEnergyLimit), big(stakerResources.TotalEnergyWeight)),
    lendableSun: big(lendable.max_size),
    receiverExists,
    // java-tron answers {} for a missing account; once created it has the day's whole allowance (600 bytes).
    receiverHasFreeBandwidth: !receiverExists || freeLeft >= TOKEN_TRANSFER_BYTES,
  };
}

/** The staked energy an account can spend now (its limit less the usage not yet recovered). */
export async function energyLeft(node: TronNode, address: string): Promise<bigint> {
  const r = await node.wallet<ResourceAnswer>("getaccountresource", { address, visible: true });
  const left = big(r.EnergyLimit) - big(r.EnergyUsed);
  return left > 0n ? left : 0n;
}
