/**
 * Energy charges for a TriggerSmartContract as java-tron makes them: the energy limit from fee_limit
 * (VMActuator.getTotalEnergyLimitWithFixRatio) and the bill (ReceiptCapsule.payEnergyBill), plus the dynamic energy
 * factor of popular contracts (ContractStateCapsule.catchUpToCycle).
 */
import {
  type AccountResources,
  energyLeft,
  increaseWindowed,
  type NetworkWeights,
  type TronChainParameters,
} from "./resources";

/** Constant.SUN_PER_ENERGY: the price java-tron falls back to when getEnergyFee is 0. */
const SUN_PER_ENERGY = 100n;
/** Constant.DYNAMIC_ENERGY_FACTOR_DECIMAL: energy factors are in 1/10,000. */
export const ENERGY_FACTOR_DECIMAL = 10_000n;

/**
 * Mainnet USDT transfer energy seen in 2025 at energy_factor 3.4 (third-party figures, see RESOURCE-MODEL.md): about
 * 14.6k base energy when the recipient's balance slot is already non-zero, 15,000 more (SSTORE 20,000 vs 5,000) when
 * it is zero, each multiplied by 1 + 3.4.
 */
export const USDT_TRANSFER_ENERGY = Object.freeze({ toHolder: 64_285n, toEmptyBalance: 130_285n });

/** The deployer's share, as set on the contract (getcontract: consume_user_resource_percent, origin_energy_limit). */
export interface ContractOrigin {
  account: AccountResources;
  consumeUserResourcePercent: bigint;
  originEnergyLimit: bigint;
}

export interface EnergyCall {
  caller: AccountResources;
  /** The caller's TRX balance (sun) before the bill; bandwidth has already been paid from it. */
  balance: bigint;
  feeLimit: bigint;
  callValue?: bigint;
  /** Energy the execution consumes (dynamic-energy penalty included), or would need to finish. */
  energyUsed: bigint;
  /** REVERT bills the energy used so far; EXCEPTION (invalid opcode, …) spends the whole limit, as java-tron does. */
  outcome?: "SUCCESS" | "REVERT" | "EXCEPTION";
  /** The contract's deployer, when it is not the caller. Omitted: the caller pays everything. */
  origin?: ContractOrigin;
}

export type EnergyBill =
  | {
      ok: true;
      /** receipt.result: OUT_OF_ENERGY when the limit was reached first. */
      result: "SUCCESS" | "REVERT" | "EXCEPTION" | "OUT_OF_ENERGY";
      /** The most this call could spend (caller's + deployer's share). */
      energyLimit: bigint;
      /** receipt.energy_usage_total. */
      energyUsageTotal: bigint;
      /** receipt.energy_usage: the caller's staked energy consumed. */
      energyUsage: bigint;
      /** receipt.origin_energy_usage: the deployer's staked energy consumed. */
      originEnergyUsage: bigint;
      /** receipt.energy_fee: sun burnt from the caller. */
      energyFee: bigint;
      caller: AccountResources;
      origin?: AccountResources;
    }
  | { ok: false; code: "CONTRACT_VALIDATE_ERROR"; message: string };

/** bigint has no Math.min. */
function min(...xs: bigint[]): bigint {
  let m = xs[0]!;
  for (const x of xs) if (x < m) m = x;
  return m;
}
const pos = (x: bigint) => (x > 0n ? x : 0n);

/** EnergyProcessor.useEnergy (Stake 2.0): adds `energy` to the account's usage, recovering first. */
function consumeEnergy(a: AccountResources, energy: bigint, now: bigint): AccountResources {
  const next = increaseWindowed(a.energyUsage, energy, a.latestConsumeTimeForEnergy, now, a.energyWindowSize);
  return { ...a, energyUsage: next.usage, energyWindowSize: next.windowSize, latestConsumeTimeForEnergy: now };
}

/**
 * Bills a contract call. fee_limit caps the caller's energy in total, staked energy included:
 * callerLimit = min(staked left + (balance − call_value) / energyFee, fee_limit / energyFee). The deployer adds
 * min(callerLimit × (100 − pct) / pct, its staked energy left, origin_energy_limit). Running past the limit is
 * OUT_OF_ENERGY and spends the whole limit: the caller's share comes from stake first, the rest is burnt.
 */
export function chargeEnergy(call: EnergyCall, now: bigint, p: TronChainParameters, w: NetworkWeights): EnergyBill {
  if (call.feeLimit < 0n || call.feeLimit > p.maxFeeLimit) {
    return { ok: false, code: "CONTRACT_VALIDATE_ERROR", message: `feeLimit must be >= 0 and <= ${p.maxFeeLimit}` };
  }
  const price = p.energyFee > 0n ? p.energyFee : SUN_PER_ENERGY;
  const callerLeft = energyLeft(call.caller, now, p, w);
  const fromBalance = pos(call.balance - (call.callValue ?? 0n)) / price;
  const callerLimit = min(callerLeft + fromBalance, call.feeLimit / price);

  const origin = call.origin;
  const pct = origin ? min(origin.consumeUserResourcePercent, 100n) : 100n;
  const originLeft = origin && pct < 100n ? energyLeft(origin.account, now, p, w) : 0n;
  let creatorLimit = 0n;
  if (origin && pct <= 0n) creatorLimit = min(originLeft, origin.originEnergyLimit);
  else if (origin && pct < 100n) {
    creatorLimit = min((callerLimit * (100n - pct)) / pct, originLeft, origin.originEnergyLimit);
  }
  const limit = callerLimit + creatorLimit;

  const outcome = call.outcome ?? "SUCCESS";
  const outOfEnergy = call.energyUsed > limit;
  const total = outOfEnergy || outcome === "EXCEPTION" ? limit : call.energyUsed;

  // payEnergyBill: the deployer's share first (stake only, never its TRX), then the caller: stake, then burn.
  const originUsage = origin ? min((total * (100n - pct)) / 100n, originLeft, origin.originEnergyLimit) : 0n;
  const callerUsage = total - originUsage;
  const fromStake = min(callerLeft, callerUsage);
  const energyFee = (callerUsage - fromStake) * price;
  return {
    ok: true,
    result: outOfEnergy ? "OUT_OF_ENERGY" : outcome,
    energyLimit: limit,
    energyUsageTotal: total,
    energyUsage: fromStake,
    originEnergyUsage: originUsage,
    energyFee,
    caller: total > 0n ? consumeEnergy(call.caller, fromStake, now) : call.caller,
    ...(origin ? { origin: total > 0n ? consumeEnergy(origin.account, originUsage, now) : origin.account } : {}),
  };
}

/** The energy a call costs at a contract's energy_factor (VM.play adds energy × factor per opcode, rounded down). */
export function withEnergyFactor(baseEnergy: bigint, energyFactor: bigint): bigint {
  return (baseEnergy * (ENERGY_FACTOR_DECIMAL + energyFactor)) / ENERGY_FACTOR_DECIMAL;
}

/**
 * ContractStateCapsule.catchUpToCycle: the factor for `cycle` (a maintenance period, 6 h on mainnet) given the
 * factor and base-energy usage recorded in `lastCycle`. Above the threshold the factor rises by increase_factor
 * (capped at max_factor); every cycle after that it falls by a quarter of increase_factor, down to 0.
 */
export function nextEnergyFactor(
  factor: bigint,
  usageInLastCycle: bigint,
  lastCycle: bigint,
  cycle: bigint,
  p: TronChainParameters,
): bigint {
  if (lastCycle === cycle) return factor;
  if (lastCycle > cycle || lastCycle === 0n) return 0n;
  const decimal = Number(ENERGY_FACTOR_DECIMAL);
  let f = Number(factor);
  let from = lastCycle;
  if (usageInLastCycle > p.dynamicEnergyThreshold) {
    from += 1n;
    const raised = Math.trunc((f + decimal) * (1 + Number(p.dynamicEnergyIncreaseFactor) / decimal)) - decimal;
    f = Math.min(Number(p.dynamicEnergyMaxFactor), raised);
  }
  const cycles = cycle - from;
  if (cycles <= 0n) return BigInt(f);
  const decrease = (1 - Number(p.dynamicEnergyIncreaseFactor) / 4 / decimal) ** Number(cycles);
  return BigInt(Math.max(0, Math.trunc((f + decimal) * decrease) - decimal));
}
