/**
 * Stake 2.0 bookkeeping (freezebalancev2, unfreezebalancev2, delegateresource, undelegateresource) as state
 * transitions on AccountResources. Validation messages are java-tron's actuator texts.
 */
import {
  type AccountResources,
  BLOCK_PRODUCED_INTERVAL_MS,
  type NetworkWeights,
  recovery,
  TRX_PRECISION,
  type TronChainParameters,
} from "./resources";

export type StakeResource = "BANDWIDTH" | "ENERGY";
/** ChainConstant.FROZEN_PERIOD, one unfreeze-delay day in ms. */
export const FROZEN_PERIOD_MS = 86_400_000n;
/** ChainConstant.DELEGATE_PERIOD / BLOCK_PRODUCED_INTERVAL: the default delegation lock, in slots (3 days). */
export const DEFAULT_DELEGATE_LOCK_SLOTS = 86_400n;
/** UnfreezeBalanceV2Actuator.UNFREEZE_MAX_TIMES: pending unfreezes an account may have at once. */
export const UNFREEZE_MAX_TIMES = 32;

type Result = { ok: true; account: AccountResources; weightDelta: bigint } | { ok: false; message: string };

const own = (a: AccountResources, r: StakeResource) => (r === "ENERGY" ? a.frozenForEnergy : a.frozenForBandwidth);
const withOwn = (a: AccountResources, r: StakeResource, sun: bigint): AccountResources =>
  r === "ENERGY" ? { ...a, frozenForEnergy: sun } : { ...a, frozenForBandwidth: sun };
/** getFrozenV2BalanceWithDelegated: what the account's weight in TotalNetWeight/TotalEnergyWeight counts. */
const weightOf = (a: AccountResources, r: StakeResource) =>
  (own(a, r) + (r === "ENERGY" ? a.delegatedOutForEnergy : a.delegatedOutForBandwidth)) / TRX_PRECISION;

/** FreezeBalanceV2Actuator: at least 1 TRX, at most the balance; the total weight moves by whole TRX. */
export function freezeV2(a: AccountResources, balance: bigint, sun: bigint, r: StakeResource): Result {
  if (sun <= 0n) return { ok: false, message: "frozenBalance must be positive" };
  if (sun < TRX_PRECISION) return { ok: false, message: "frozenBalance must be greater than or equal to 1 TRX" };
  if (sun > balance) return { ok: false, message: "frozenBalance must be less than or equal to accountBalance" };
  const next = withOwn(a, r, own(a, r) + sun);
  return { ok: true, account: next, weightDelta: weightOf(next, r) - weightOf(a, r) };
}

/**
 * UnfreezeBalanceV2Actuator: only stake not delegated out can be unfrozen; the TRX comes back after
 * unfreezeDelayDays (withdrawexpireunfreeze, or the next unfreeze, moves it to the balance).
 */
export function unfreezeV2(
  a: AccountResources,
  sun: bigint,
  r: StakeResource,
  nowMs: bigint,
  pendingUnfreezes: number,
  p: TronChainParameters,
): (Result & { ok: true; unfreezeExpireTime: bigint }) | (Result & { ok: false }) {
  if (own(a, r) <= 0n)
    return { ok: false, message: r === "ENERGY" ? "no frozenBalance(Energy)" : "no frozenBalance(BANDWIDTH)" };
  if (sun <= 0n || sun > own(a, r)) return { ok: false, message: `Invalid unfreeze_balance, [${sun}] is error` };
  if (pendingUnfreezes >= UNFREEZE_MAX_TIMES) {
    return { ok: false, message: "Invalid unfreeze operation, unfreezing times is over limit" };
  }
  const next = withOwn(a, r, own(a, r) - sun);
  const unfreezeExpireTime = nowMs + p.unfreezeDelayDays * FROZEN_PERIOD_MS;
  return { ok: true, account: next, weightDelta: weightOf(next, r) - weightOf(a, r), unfreezeExpireTime };
}

/**
 * DelegateResourceActuator.validate: own stake minus the part backing resource already used (usage converted back
 * to sun at the network's current rate, less what delegations to this account cover).
 */
export function delegatableSun(
  a: AccountResources,
  r: StakeResource,
  now: bigint,
  p: TronChainParameters,
  w: NetworkWeights,
): bigint {
  const [usage, weight, limit, acquired] =
    r === "ENERGY"
      ? [
          recovery(a.energyUsage, a.latestConsumeTimeForEnergy, now, a.energyWindowSize),
          w.totalEnergyWeight,
          p.totalEnergyLimit,
          a.acquiredForEnergy,
        ]
      : [
          recovery(a.netUsage, a.latestConsumeTime, now, a.netWindowSize),
          w.totalNetWeight,
          p.totalNetLimit,
          a.acquiredForBandwidth,
        ];
  const usageSun = limit > 0n ? BigInt(Math.trunc(Number(usage) * 1e6 * (Number(weight) / Number(limit)))) : 0n;
  const v2Usage = usageSun - acquired > 0n ? usageSun - acquired : 0n;
  return own(a, r) - v2Usage;
}

/**
 * DelegateResourceActuator.execute: the stake moves from the owner's frozenV2 to its delegated-out balance (its
 * weight is unchanged) and the receiver gains it as acquired stake. A lock expires lock_period slots later.
 * Left to the caller: lock_period ≤ getMaxDelegateLockPeriod and not ending before a running lock, and the receiver
 * existing and not being a contract. `available` is delegatableSun().
 */
export function delegate(
  owner: AccountResources,
  receiver: AccountResources,
  sun: bigint,
  r: StakeResource,
  lockPeriodSlots: bigint | null,
  nowMs: bigint,
  available: bigint,
):
  | { ok: true; owner: AccountResources; receiver: AccountResources; expireTime: bigint }
  | { ok: false; message: string } {
  if (sun < TRX_PRECISION) return { ok: false, message: "delegateBalance must be greater than or equal to 1 TRX" };
  if (sun > available) {
    const what = r === "ENERGY" ? "FreezeEnergyV2" : "FreezeBandwidthV2";
    return { ok: false, message: `delegateBalance must be less than or equal to available ${what} balance` };
  }
  const lock = lockPeriodSlots === null ? 0n : lockPeriodSlots === 0n ? DEFAULT_DELEGATE_LOCK_SLOTS : lockPeriodSlots;
  const expireTime = lock > 0n ? nowMs + lock * BLOCK_PRODUCED_INTERVAL_MS : 0n;
  if (r === "ENERGY") {
    return {
      ok: true,
      owner: {
        ...owner,
        frozenForEnergy: owner.frozenForEnergy - sun,
        delegatedOutForEnergy: owner.delegatedOutForEnergy + sun,
      },
      receiver: { ...receiver, acquiredForEnergy: receiver.acquiredForEnergy + sun },
      expireTime,
    };
  }
  return {
    ok: true,
    owner: {
      ...owner,
      frozenForBandwidth: owner.frozenForBandwidth - sun,
      delegatedOutForBandwidth: owner.delegatedOutForBandwidth + sun,
    },
    receiver: { ...receiver, acquiredForBandwidth: receiver.acquiredForBandwidth + sun },
    expireTime,
  };
}

/**
 * UnDelegateResourceActuator: the receiver hands back the share of its used resource that the returned stake
 * backed (capped at what that stake yields network-wide); the owner takes that usage on (unDelegateIncrease).
 */
export function undelegateTransferUsage(
  receiver: AccountResources,
  sun: bigint,
  r: StakeResource,
  now: bigint,
  p: TronChainParameters,
  w: NetworkWeights,
): bigint {
  const energy = r === "ENERGY";
  const usage = energy
    ? recovery(receiver.energyUsage, receiver.latestConsumeTimeForEnergy, now, receiver.energyWindowSize)
    : recovery(receiver.netUsage, receiver.latestConsumeTime, now, receiver.netWindowSize);
  const allStaked = energy
    ? receiver.frozenForEnergy + receiver.acquiredForEnergy
    : receiver.frozenForBandwidth + receiver.acquiredForBandwidth;
  if (allStaked <= 0n) return 0n;
  const [limit, weight] = energy ? [p.totalEnergyLimit, w.totalEnergyWeight] : [p.totalNetLimit, w.totalNetWeight];
  const maxUsage = weight > 0n ? BigInt(Math.trunc((Number(sun) / 1e6) * (Number(limit) / Number(weight)))) : 0n;
  const share = BigInt(Math.trunc(Number(usage) * (Number(sun) / Number(allStaked))));
  return share < maxUsage ? share : maxUsage;
}
