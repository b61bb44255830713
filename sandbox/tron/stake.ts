import { minOf } from "@/lib/kernel/bigint";
import type { AccountChanges, Delegation, Unfreezing } from "./accounts";
import { accountExists } from "./account-lookup";
import type { FacadeContext } from "./context";
import { type AccountResources, increaseWindowed, recovery } from "./resources";
import {
  delegatableSun,
  delegate,
  freezeV2,
  type StakeResource,
  undelegateTransferUsage,
  unfreezeV2,
} from "./resources-stake";
import type { StakeContractType } from "./tron-proto";

/** A Stake 2.0 contract's effect: account changes, and TRX moved into (+) or out of (−) the stake. */
export type StakeOutcome = { ok: false; message: string } | { ok: true; changes: AccountChanges; staked: bigint };

const resourceOf = (v: unknown): StakeResource => (v === "ENERGY" ? "ENERGY" : "BANDWIDTH");
const sunOf = (v: unknown) => BigInt(Number(v ?? 0));
const forEnergy = (r: StakeResource) => r === "ENERGY";

/** The network weight after `delta` whole TRX more (or fewer) staked for `r`. */
function weightsAfter(ctx: FacadeContext, r: StakeResource, delta: bigint) {
  const w = ctx.accounts.weights;
  return forEnergy(r)
    ? { ...w, totalEnergyWeight: w.totalEnergyWeight + delta }
    : { ...w, totalNetWeight: w.totalNetWeight + delta };
}

/**
 * Validates and applies a Stake 2.0 contract as java-tron's actuators do (resources-stake.ts holds the rules).
 * `owner` is the account after its bandwidth was charged; `balance` what is left of its TRX; times are the head
 * block's (ms) and head slot.
 */
export async function applyStake(
  ctx: FacadeContext,
  type: StakeContractType,
  value: Record<string, unknown>,
  owner: AccountResources,
  balance: bigint,
  nowMs: bigint,
  now: bigint,
): Promise<StakeOutcome> {
  const address = String(value.owner_address);
  const r = resourceOf(value.resource);
  const p = ctx.parameters;
  const pending = ctx.accounts.pendingUnfreezes(address);
  const matured = pending.filter((u) => u.expireTime <= nowMs);
  const maturedSun = matured.reduce((sum, u) => sum + u.amount, 0n);
  const waiting = pending.filter((u) => u.expireTime > nowMs);

  switch (type) {
    case "FreezeBalanceV2Contract": {
      const done = freezeV2(owner, balance, sunOf(value.frozen_balance), r);
      if (!done.ok) return done;
      return {
        ok: true,
        staked: sunOf(value.frozen_balance),
        changes: { resources: [[address, done.account]], weights: weightsAfter(ctx, r, done.weightDelta) },
      };
    }
    case "UnfreezeBalanceV2Contract": {
      const done = unfreezeV2(owner, sunOf(value.unfreeze_balance), r, nowMs, waiting.length, p);
      if (!done.ok) return done;
      // Each unfreeze also withdraws what has matured (withdraw_expire_amount).
      const next: Unfreezing = { type: r, amount: sunOf(value.unfreeze_balance), expireTime: done.unfreezeExpireTime };
      return {
        ok: true,
        staked: -maturedSun,
        changes: {
          resources: [[address, done.account]],
          unfreezing: [[address, [...waiting, next]]],
          weights: weightsAfter(ctx, r, done.weightDelta),
        },
      };
    }
    case "WithdrawExpireUnfreezeContract":
      if (maturedSun === 0n) return { ok: false, message: "no unFreeze balance to withdraw " };
      return {
        ok: true,
        staked: -maturedSun,
        changes: { resources: [[address, owner]], unfreezing: [[address, waiting]] },
      };
    case "DelegateResourceContract":
      return delegateTo(ctx, value, owner, r, nowMs, now);
    case "UnDelegateResourceContract":
      return undelegateFrom(ctx, value, owner, r, nowMs, now);
  }
}

async function delegateTo(
  ctx: FacadeContext,
  value: Record<string, unknown>,
  owner: AccountResources,
  r: StakeResource,
  nowMs: bigint,
  now: bigint,
): Promise<StakeOutcome> {
  const from = String(value.owner_address);
  const to = String(value.receiver_address);
  if (from === to) return { ok: false, message: "receiverAddress must not be the same as ownerAddress" };
  if (!(await accountExists(ctx, to))) return { ok: false, message: `Account[${to}] not exists` };
  if ((await ctx.rpc<string>("eth_getCode", [`0x${to.slice(2)}`, "latest"])) !== "0x")
    return { ok: false, message: "Do not allow delegate resources to contract addresses" };
  const locked = value.lock === true;
  const period = sunOf(value.lock_period);
  if (locked && period > ctx.parameters.maxDelegateLockPeriod)
    return {
      ok: false,
      message:
        `The lock period of delegate resource cannot be less than 0 ` +
        `and cannot exceed ${ctx.parameters.maxDelegateLockPeriod}!`,
    };
  const available = delegatableSun(owner, r, now, ctx.parameters, ctx.accounts.weights);
  const done = delegate(
    owner,
    ctx.accounts.resources(to),
    sunOf(value.balance),
    r,
    locked ? period : null,
    nowMs,
    available,
  );
  if (!done.ok) return done;
  const record = ctx.accounts.delegation(from, to, locked);
  const expireKey = forEnergy(r) ? "energyExpireTime" : "bandwidthExpireTime";
  if (locked && done.expireTime < record[expireKey])
    return { ok: false, message: `The lock period for ${r} this time cannot be less than the remaining time` };
  const amountKey = forEnergy(r) ? "energy" : "bandwidth";
  const next: Delegation = { ...record, [amountKey]: record[amountKey] + sunOf(value.balance) };
  if (locked) next[expireKey] = done.expireTime;
  return {
    ok: true,
    staked: 0n,
    changes: {
      resources: [
        [from, done.owner],
        [to, done.receiver],
      ],
      delegations: [[from, to, locked, next]],
    },
  };
}

async function undelegateFrom(
  ctx: FacadeContext,
  value: Record<string, unknown>,
  owner: AccountResources,
  r: StakeResource,
  nowMs: bigint,
  now: bigint,
): Promise<StakeOutcome> {
  const from = String(value.owner_address);
  const to = String(value.receiver_address);
  const sun = sunOf(value.balance);
  const amountKey = forEnergy(r) ? "energy" : "bandwidth";
  const expireKey = forEnergy(r) ? "energyExpireTime" : "bandwidthExpireTime";
  const unlocked = ctx.accounts.delegation(from, to, false);
  const lockRecord = ctx.accounts.delegation(from, to, true);
  // A lock that has run out counts as unlocked (java-tron merges it on the next undelegate).
  const expired = lockRecord[expireKey] <= nowMs ? lockRecord[amountKey] : 0n;
  const free = unlocked[amountKey] + expired;
  if (sun <= 0n) return { ok: false, message: "unDelegateBalance must be more than 0 TRX" };
  if (sun > free)
    return {
      ok: false,
      message:
        `insufficient delegatedFrozenBalance(${forEnergy(r) ? "Energy" : "BANDWIDTH"}), ` +
        `request=${sun}, unlock_balance=${free}`,
    };
  const receiver = ctx.accounts.resources(to);
  const moved = undelegateTransferUsage(receiver, sun, r, now, ctx.parameters, ctx.accounts.weights);
  const fromUnlocked = minOf(sun, unlocked[amountKey]);
  const nextUnlocked: Delegation = { ...unlocked, [amountKey]: unlocked[amountKey] - fromUnlocked };
  const nextLocked: Delegation = { ...lockRecord, [amountKey]: lockRecord[amountKey] - (sun - fromUnlocked) };
  return {
    ok: true,
    staked: 0n,
    changes: {
      resources: [
        [from, takeUsage(returnStake(owner, r, sun), r, moved, now)],
        [to, giveBackUsage(dropAcquired(receiver, r, sun), r, moved, now)],
      ],
      delegations: [
        [from, to, false, nextUnlocked],
        [from, to, true, nextLocked],
      ],
    },
  };
}

const returnStake = (a: AccountResources, r: StakeResource, sun: bigint): AccountResources =>
  forEnergy(r)
    ? { ...a, frozenForEnergy: a.frozenForEnergy + sun, delegatedOutForEnergy: a.delegatedOutForEnergy - sun }
    : {
        ...a,
        frozenForBandwidth: a.frozenForBandwidth + sun,
        delegatedOutForBandwidth: a.delegatedOutForBandwidth - sun,
      };
const dropAcquired = (a: AccountResources, r: StakeResource, sun: bigint): AccountResources =>
  forEnergy(r)
    ? { ...a, acquiredForEnergy: a.acquiredForEnergy - sun }
    : { ...a, acquiredForBandwidth: a.acquiredForBandwidth - sun };

/** The owner takes on the usage the returned stake backed (ResourceProcessor.unDelegateIncrease, merged windows). */
function takeUsage(a: AccountResources, r: StakeResource, usage: bigint, now: bigint): AccountResources {
  if (usage === 0n) return a;
  if (forEnergy(r)) {
    const next = increaseWindowed(a.energyUsage, usage, a.latestConsumeTimeForEnergy, now, a.energyWindowSize);
    return { ...a, energyUsage: next.usage, energyWindowSize: next.windowSize, latestConsumeTimeForEnergy: now };
  }
  const next = increaseWindowed(a.netUsage, usage, a.latestConsumeTime, now, a.netWindowSize);
  return { ...a, netUsage: next.usage, netWindowSize: next.windowSize, latestConsumeTime: now };
}

/** The receiver's usage, recovered to now, less what moved to the owner. */
function giveBackUsage(a: AccountResources, r: StakeResource, usage: bigint, now: bigint): AccountResources {
  if (forEnergy(r)) {
    const left = recovery(a.energyUsage, a.latestConsumeTimeForEnergy, now, a.energyWindowSize) - usage;
    return { ...a, energyUsage: left > 0n ? left : 0n, latestConsumeTimeForEnergy: now };
  }
  const left = recovery(a.netUsage, a.latestConsumeTime, now, a.netWindowSize) - usage;
  return { ...a, netUsage: left > 0n ? left : 0n, latestConsumeTime: now };
}
