/**
 * Tron resource accounting (bandwidth, energy, Stake 2.0 limits): pure functions, no I/O. The sandbox can keep an
 * AccountResources per address and call these instead of charging nothing. RESOURCE-MODEL.md cites each rule's
 * java-tron source. Charges: resources-bandwidth.ts, resources-energy.ts; Stake 2.0 helpers: resources-stake.ts.
 *
 * Units: sun for TRX, plain units for bandwidth/energy, "slots" (3 s, java-tron's head slot) for time.
 */

/** ChainConstant (common/.../config/Parameter.java). */
export const BLOCK_PRODUCED_INTERVAL_MS = 3_000n;
/** WINDOW_SIZE_MS / BLOCK_PRODUCED_INTERVAL: usage recovers linearly over 28,800 slots = 24 h. */
export const WINDOW_SLOTS = 28_800n;
/** ChainConstant.PRECISION: the fixed-point scale of ResourceProcessor's average usage. */
export const PRECISION = 1_000_000n;
/** ChainConstant.WINDOW_SIZE_PRECISION: per-account window sizes are kept in 1/1000 slot. */
export const WINDOW_SIZE_PRECISION = 1_000n;
/** Sun per TRX; stake weights are whole TRX (frozen sun / TRX_PRECISION). */
export const TRX_PRECISION = 1_000_000n;

/** Committee parameters, named after their /wallet/getchainparameters keys. */
export interface TronChainParameters {
  /** getTransactionFee: sun burnt per bandwidth byte. */
  transactionFee: bigint;
  /** getEnergyFee: sun burnt per energy unit. */
  energyFee: bigint;
  /** getFreeNetLimit: free bandwidth per account per 24 h. */
  freeNetLimit: bigint;
  /** getTotalNetLimit: bandwidth shared by all bandwidth stakers per 24 h. */
  totalNetLimit: bigint;
  /** getTotalEnergyCurrentLimit (= getTotalEnergyLimit while adaptive energy is off, as on mainnet). */
  totalEnergyLimit: bigint;
  /** getCreateAccountFee: sun burnt when the creator's staked bandwidth cannot pay for the creation. */
  createAccountFee: bigint;
  /** getCreateNewAccountFeeInSystemContract: sun the TransferContract actuator burns for a new recipient. */
  createNewAccountFeeInSystemContract: bigint;
  /** getCreateNewAccountBandwidthRate: staked bandwidth per byte of an account-creating transaction. */
  createNewAccountBandwidthRate: bigint;
  /** getMaxFeeLimit: the largest fee_limit a transaction may carry. */
  maxFeeLimit: bigint;
  /** getUnfreezeDelayDays: how long unfreezebalancev2 keeps TRX pending. */
  unfreezeDelayDays: bigint;
  /** getMaxDelegateLockPeriod: the longest delegateresource lock_period, in slots. */
  maxDelegateLockPeriod: bigint;
  /** getDynamicEnergyThreshold / IncreaseFactor / MaxFactor (factors are in 1/10,000). */
  dynamicEnergyThreshold: bigint;
  dynamicEnergyIncreaseFactor: bigint;
  dynamicEnergyMaxFactor: bigint;
}

/** Mainnet values as documented in 2025 (RESOURCE-MODEL.md gives the source and proposal of each). */
export const MAINNET_PARAMETERS: Readonly<TronChainParameters> = Object.freeze({
  transactionFee: 1_000n,
  energyFee: 100n,
  freeNetLimit: 600n,
  totalNetLimit: 43_200_000_000n,
  totalEnergyLimit: 180_000_000_000n,
  createAccountFee: 100_000n,
  createNewAccountFeeInSystemContract: 1_000_000n,
  createNewAccountBandwidthRate: 1n,
  maxFeeLimit: 15_000_000_000n,
  unfreezeDelayDays: 14n,
  maxDelegateLockPeriod: 864_000n,
  dynamicEnergyThreshold: 5_000_000_000n,
  dynamicEnergyIncreaseFactor: 2_000n,
  dynamicEnergyMaxFactor: 34_000n,
});

/** TotalNetWeight / TotalEnergyWeight: whole TRX staked network-wide. Not a committee parameter: it moves daily. */
export interface NetworkWeights {
  totalNetWeight: bigint;
  totalEnergyWeight: bigint;
}

/**
 * Placeholder totals so that a sandbox with a handful of stakers does not hand each of them the whole network's
 * resources. Round figures of mainnet's order of magnitude (about 10 energy per staked TRX), not a measured snapshot.
 */
export const SANDBOX_NETWORK_WEIGHTS: Readonly<NetworkWeights> = Object.freeze({
  totalNetWeight: 40_000_000_000n,
  totalEnergyWeight: 18_000_000_000n,
});

/** What java-tron's AccountCapsule keeps for resources (Stake 2.0 only; Stake 1.0 freezing is closed on mainnet). */
export interface AccountResources {
  freeNetUsage: bigint;
  /** latest_consume_free_time, in slots. */
  latestConsumeFreeTime: bigint;
  /** net_usage: staked bandwidth used, with its slot and window (net_window_size, 1/1000 slot; 0 = 24 h). */
  netUsage: bigint;
  latestConsumeTime: bigint;
  netWindowSize: bigint;
  energyUsage: bigint;
  latestConsumeTimeForEnergy: bigint;
  energyWindowSize: bigint;
  /** frozenV2 still owned by the account (delegated-out stake is moved to the delegatedOut fields). */
  frozenForBandwidth: bigint;
  frozenForEnergy: bigint;
  delegatedOutForBandwidth: bigint;
  delegatedOutForEnergy: bigint;
  acquiredForBandwidth: bigint;
  acquiredForEnergy: bigint;
}

export const EMPTY_RESOURCES: Readonly<AccountResources> = Object.freeze({
  freeNetUsage: 0n,
  latestConsumeFreeTime: 0n,
  netUsage: 0n,
  latestConsumeTime: 0n,
  netWindowSize: 0n,
  energyUsage: 0n,
  latestConsumeTimeForEnergy: 0n,
  energyWindowSize: 0n,
  frozenForBandwidth: 0n,
  frozenForEnergy: 0n,
  delegatedOutForBandwidth: 0n,
  delegatedOutForEnergy: 0n,
  acquiredForBandwidth: 0n,
  acquiredForEnergy: 0n,
});

/** java-tron's head slot: whole 3 s intervals since genesis, so usage decays with block time, not block count. */
export function headSlot(headBlockTimestampMs: bigint, genesisTimestampMs: bigint): bigint {
  return (headBlockTimestampMs - genesisTimestampMs) / BLOCK_PRODUCED_INTERVAL_MS;
}

const divideCeil = (n: bigint, d: bigint) => n / d + (n % d > 0n ? 1n : 0n);
const min = (a: bigint, b: bigint) => (a < b ? a : b);

/** The decay step is floating point in java-tron (double, Math.round); Number arithmetic reproduces it. */
function decay(average: bigint, delta: bigint, windowSize: bigint): bigint {
  const ratio = Number(windowSize - delta) / Number(windowSize);
  return BigInt(Math.round(Number(average) * ratio));
}

/**
 * ResourceProcessor.increase: the usage left of `lastUsage` (consumed at `lastTime`) after linear recovery over
 * `windowSize` slots, plus `usage` consumed now. With usage 0 it is the plain recovery used to check what is left.
 */
export function increase(lastUsage: bigint, usage: bigint, lastTime: bigint, now: bigint, windowSize = WINDOW_SLOTS) {
  let averageLastUsage = divideCeil(lastUsage * PRECISION, windowSize);
  const averageUsage = divideCeil(usage * PRECISION, windowSize);
  // java-tron asserts now > lastTime; a clock going backwards here just means no recovery.
  if (now > lastTime) {
    averageLastUsage = lastTime + windowSize > now ? decay(averageLastUsage, now - lastTime, windowSize) : 0n;
  }
  return ((averageLastUsage + averageUsage) * windowSize) / PRECISION;
}

/** AccountCapsule.getWindowSize for an optimized (Stake 2.0) window: 1/1000 slots to slots, 0 meaning 24 h. */
export function windowSlots(windowSizeV2: bigint): bigint {
  return windowSizeV2 < WINDOW_SIZE_PRECISION ? WINDOW_SLOTS : windowSizeV2 / WINDOW_SIZE_PRECISION;
}

/** ResourceProcessor.recovery: staked usage left now, decaying over the account's own window. */
export function recovery(lastUsage: bigint, lastTime: bigint, now: bigint, windowSizeV2: bigint): bigint {
  return increase(lastUsage, 0n, lastTime, now, windowSlots(windowSizeV2));
}

/**
 * ResourceProcessor.increaseV2 (ALLOW_CANCEL_ALL_UNFREEZE_V2, on since 2023) for staked bandwidth and energy: the
 * remaining usage keeps its shorter remaining window, and the merged window is the usage-weighted mean of the two.
 */
export function increaseWindowed(
  lastUsage: bigint,
  usage: bigint,
  lastTime: bigint,
  now: bigint,
  windowSizeV2: bigint,
): { usage: bigint; windowSize: bigint } {
  const oldWindow = windowSlots(windowSizeV2);
  const oldWindowV2 = windowSizeV2 === 0n ? WINDOW_SLOTS * WINDOW_SIZE_PRECISION : windowSizeV2;
  let averageLastUsage = divideCeil(lastUsage * PRECISION, oldWindow);
  const averageUsage = divideCeil(usage * PRECISION, WINDOW_SLOTS);
  if (now > lastTime) {
    averageLastUsage = lastTime + oldWindow > now ? decay(averageLastUsage, now - lastTime, oldWindow) : 0n;
  }
  const newUsage = (averageLastUsage * oldWindow + averageUsage * WINDOW_SLOTS) / PRECISION;
  const remainUsage = (averageLastUsage * oldWindow) / PRECISION;
  const fullWindow = WINDOW_SLOTS * WINDOW_SIZE_PRECISION;
  if (remainUsage === 0n) return { usage: newUsage, windowSize: fullWindow };
  const remainWindow = oldWindowV2 - (now > lastTime ? now - lastTime : 0n) * WINDOW_SIZE_PRECISION;
  const merged = divideCeil(remainUsage * remainWindow + usage * fullWindow, newUsage);
  return { usage: newUsage, windowSize: min(merged, fullWindow) };
}

/**
 * calculateGlobalNetLimitV2 / calculateGlobalEnergyLimitV2: a staker's share of the network total, in proportion to
 * the TRX (fractional, as a double) it holds against the network's total weight. Truncated like java-tron's cast.
 */
export function limitFromStake(stakedSun: bigint, totalLimit: bigint, totalWeight: bigint): bigint {
  if (totalWeight <= 0n || stakedSun <= 0n) return 0n;
  return BigInt(Math.trunc((Number(stakedSun) / 1e6) * (Number(totalLimit) / Number(totalWeight))));
}

/** BandwidthProcessor.calculateGlobalNetLimit: own frozenV2 plus bandwidth delegated to the account. */
export function netLimit(a: AccountResources, p: TronChainParameters, w: NetworkWeights): bigint {
  return limitFromStake(a.frozenForBandwidth + a.acquiredForBandwidth, p.totalNetLimit, w.totalNetWeight);
}

/** EnergyProcessor.calculateGlobalEnergyLimit: own frozenV2 plus energy delegated to the account. */
export function energyLimit(a: AccountResources, p: TronChainParameters, w: NetworkWeights): bigint {
  return limitFromStake(a.frozenForEnergy + a.acquiredForEnergy, p.totalEnergyLimit, w.totalEnergyWeight);
}

/** EnergyProcessor.getAccountLeftEnergyFromFreeze: staked energy available now (never negative). */
export function energyLeft(a: AccountResources, now: bigint, p: TronChainParameters, w: NetworkWeights): bigint {
  const left = energyLimit(a, p, w) - recovery(a.energyUsage, a.latestConsumeTimeForEnergy, now, a.energyWindowSize);
  return left > 0n ? left : 0n;
}
