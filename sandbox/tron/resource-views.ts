import { nowSlot } from "./account-lookup";
import type { Unfreezing } from "./accounts";
import { formatAddress } from "./address";
import { delegatableSun, type StakeResource } from "./resources-stake";
import type { FacadeContext } from "./context";
import {
  type AccountResources,
  energyLimit,
  increase,
  netLimit,
  recovery,
  type TronChainParameters,
} from "./resources";

/** java-tron's JSON leaves out zero and default fields. */
const nonZero = (fields: Record<string, bigint>) =>
  Object.fromEntries(Object.entries(fields).flatMap(([k, v]) => (v === 0n ? [] : [[k, Number(v)]])));

/** The Stake 2.0 and usage fields of /wallet/getaccount (as stored: usage is not recovered here, as in java-tron). */
export function resourceFields(r: AccountResources, unfreezing: Unfreezing[]) {
  const frozenV2 = [
    { amount: r.frozenForBandwidth },
    { type: "ENERGY", amount: r.frozenForEnergy },
    { type: "TRON_POWER", amount: 0n },
  ].map(({ type, amount }) => ({ ...(type ? { type } : {}), ...(amount > 0n ? { amount: Number(amount) } : {}) }));
  const accountResource = nonZero({
    energy_usage: r.energyUsage,
    latest_consume_time_for_energy: r.latestConsumeTimeForEnergy * 3000n,
    energy_window_size: r.energyWindowSize,
    delegated_frozenV2_balance_for_energy: r.delegatedOutForEnergy,
    acquired_delegated_frozenV2_balance_for_energy: r.acquiredForEnergy,
  });
  return {
    ...nonZero({
      net_usage: r.netUsage,
      free_net_usage: r.freeNetUsage,
      latest_consume_time: r.latestConsumeTime * 3000n,
      latest_consume_free_time: r.latestConsumeFreeTime * 3000n,
      net_window_size: r.netWindowSize,
      delegated_frozenV2_balance_for_bandwidth: r.delegatedOutForBandwidth,
      acquired_delegated_frozenV2_balance_for_bandwidth: r.acquiredForBandwidth,
    }),
    ...(r.netWindowSize > 0n ? { net_window_optimized: true } : {}),
    account_resource: {
      ...accountResource,
      ...(r.energyWindowSize > 0n ? { energy_window_optimized: true } : {}),
    },
    frozenV2,
    ...(unfreezing.length
      ? {
          unfrozenV2: unfreezing.map((u) => ({
            ...(u.type === "ENERGY" ? { type: "ENERGY" } : {}),
            unfreeze_amount: Number(u.amount),
            unfreeze_expire_time: Number(u.expireTime),
          })),
        }
      : {}),
  };
}

/** /wallet/getdelegatedresourcev2: java-tron lists the unlocked record, then the locked one. */
export function delegatedResources(ctx: FacadeContext, from: string, to: string, visible: boolean) {
  const records = [false, true]
    .map((locked) => ctx.accounts.delegation(from, to, locked))
    .filter((d) => d.bandwidth > 0n || d.energy > 0n)
    .map((d) => ({
      from: formatAddress(from, visible),
      to: formatAddress(to, visible),
      ...nonZero({
        frozen_balance_for_bandwidth: d.bandwidth,
        frozen_balance_for_energy: d.energy,
        expire_time_for_bandwidth: d.bandwidthExpireTime,
        expire_time_for_energy: d.energyExpireTime,
      }),
    }));
  return records.length ? { delegatedResource: records } : {};
}

/** /wallet/getdelegatedresourceaccountindexv2: who delegates to the account and whom it delegates to. */
export function delegationIndex(ctx: FacadeContext, address: string, visible: boolean) {
  const records = ctx.accounts.delegationsOf(address);
  const unique = (list: string[]) => [...new Set(list)].map((a) => formatAddress(a, visible));
  const fromAccounts = unique(records.filter(([, to]) => to === address).map(([from]) => from));
  const toAccounts = unique(records.filter(([from]) => from === address).map(([, to]) => to));
  if (!fromAccounts.length && !toAccounts.length) return {};
  return {
    account: formatAddress(address, visible),
    ...(fromAccounts.length ? { fromAccounts } : {}),
    ...(toAccounts.length ? { toAccounts } : {}),
  };
}

/** /wallet/getcandelegatedmaxsize: the stake (sun) the account can delegate now for a resource. */
export async function canDelegateMaxSize(ctx: FacadeContext, address: string, r: StakeResource) {
  const now = await nowSlot(ctx);
  const max = delegatableSun(ctx.accounts.resources(address), r, now, ctx.parameters, ctx.accounts.weights);
  return max > 0n ? { max_size: Number(max) } : {};
}

/** /wallet/getaccountresource (api.AccountResourceMessage): usage recovered to now, limits from stake. */
export async function accountResource(ctx: FacadeContext, r: AccountResources) {
  const now = await nowSlot(ctx);
  const p = ctx.parameters;
  const w = ctx.accounts.weights;
  return {
    freeNetUsed: Number(increase(r.freeNetUsage, 0n, r.latestConsumeFreeTime, now)),
    freeNetLimit: Number(p.freeNetLimit),
    ...nonZero({
      NetUsed: recovery(r.netUsage, r.latestConsumeTime, now, r.netWindowSize),
      NetLimit: netLimit(r, p, w),
    }),
    TotalNetLimit: Number(p.totalNetLimit),
    TotalNetWeight: Number(w.totalNetWeight),
    ...nonZero({
      EnergyUsed: recovery(r.energyUsage, r.latestConsumeTimeForEnergy, now, r.energyWindowSize),
      EnergyLimit: energyLimit(r, p, w),
    }),
    TotalEnergyLimit: Number(p.totalEnergyLimit),
    TotalEnergyWeight: Number(w.totalEnergyWeight),
  };
}

/** /wallet/getchainparameters: the fee and resource parameters the sandbox charges by, and the TVM switches. */
export function chainParameters(p: TronChainParameters) {
  const params: [string, bigint | number][] = [
    ["getMaintenanceTimeInterval", 21_600_000],
    ["getTransactionFee", p.transactionFee],
    ["getCreateAccountFee", p.createAccountFee],
    ["getCreateNewAccountFeeInSystemContract", p.createNewAccountFeeInSystemContract],
    ["getCreateNewAccountBandwidthRate", p.createNewAccountBandwidthRate],
    ["getEnergyFee", p.energyFee],
    ["getFreeNetLimit", p.freeNetLimit],
    ["getTotalNetLimit", p.totalNetLimit],
    ["getTotalEnergyLimit", p.totalEnergyLimit],
    ["getTotalEnergyCurrentLimit", p.totalEnergyLimit],
    ["getMaxFeeLimit", p.maxFeeLimit],
    ["getUnfreezeDelayDays", p.unfreezeDelayDays],
    ["getMaxDelegateLockPeriod", p.maxDelegateLockPeriod],
    ["getAllowDynamicEnergy", 1],
    ["getDynamicEnergyThreshold", p.dynamicEnergyThreshold],
    ["getDynamicEnergyIncreaseFactor", p.dynamicEnergyIncreaseFactor],
    ["getDynamicEnergyMaxFactor", p.dynamicEnergyMaxFactor],
    ["getAllowTvmTransferTrc10", 1],
    ["getAllowTvmConstantinople", 1],
    ["getAllowTvmSolidity059", 1],
    ["getAllowTvmIstanbul", 1],
    ["getAllowTvmLondon", 1],
  ];
  // A zero value is left out of its entry, as java-tron's JSON does.
  return {
    chainParameter: params.map(([key, value]) => (Number(value) === 0 ? { key } : { key, value: Number(value) })),
  };
}
