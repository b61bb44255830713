import { describe, expect, it } from "vitest";
import {
  type AccountResources,
  EMPTY_RESOURCES,
  energyLimit,
  increase,
  increaseWindowed,
  limitFromStake,
  MAINNET_PARAMETERS,
  type NetworkWeights,
  netLimit,
  WINDOW_SLOTS,
} from "@/sandbox/tron/resources";
import { chargeAccountCreation, chargeBandwidth, transactionBandwidthBytes } from "@/sandbox/tron/resources-bandwidth";
import { chargeEnergy, nextEnergyFactor } from "@/sandbox/tron/resources-energy";
import {
  delegatableSun,
  delegate,
  freezeV2,
  undelegateTransferUsage,
  unfreezeV2,
} from "@/sandbox/tron/resources-stake";

const P = MAINNET_PARAMETERS;
/** Round totals: 1 bandwidth and 10 energy per staked TRX. */
const W: NetworkWeights = { totalNetWeight: 43_200_000_000n, totalEnergyWeight: 18_000_000_000n };
const TRX = 1_000_000n;
const NOW = 1_000n;
const account = (over: Partial<AccountResources> = {}): AccountResources => ({ ...EMPTY_RESOURCES, ...over });

describe("bandwidth (BandwidthProcessor.consume)", () => {
  it("bills the protobuf size without ret plus 64 result bytes per contract", () => {
    expect(transactionBandwidthBytes(100n, 1n)).toBe(1n + 1n + 100n + 67n + 64n);
    expect(transactionBandwidthBytes(200n, 1n)).toBe(1n + 2n + 200n + 67n + 64n); // 200 needs a 2-byte length
  });

  it("uses the free daily allowance before burning, and burns for the whole size once it cannot cover it", () => {
    const first = chargeBandwidth(account(), 10n * TRX, 268n, NOW, P, W);
    expect(first).toMatchObject({ ok: true, source: "free", netUsage: 268n, netFee: 0n });
    if (!first.ok) throw new Error("unreachable");
    const second = chargeBandwidth(first.account, 10n * TRX, 268n, NOW, P, W);
    expect(second).toMatchObject({ ok: true, source: "free", netUsage: 268n });
    if (!second.ok) throw new Error("unreachable");
    expect(second.account.freeNetUsage).toBe(536n);
    // 64 free bytes left: no partial use, all 268 bytes are burnt at 1,000 sun.
    const third = chargeBandwidth(second.account, 10n * TRX, 268n, NOW, P, W);
    expect(third).toMatchObject({ ok: true, source: "burn", netUsage: 0n, netFee: 268_000n });
    if (!third.ok) throw new Error("unreachable");
    expect(third.account.freeNetUsage).toBe(536n);
  });

  it("burns bytes × getTransactionFee, and refuses with BANDWITH_ERROR when the balance is short", () => {
    const spent = account({ freeNetUsage: 600n, latestConsumeFreeTime: NOW });
    const priced = { ...P, transactionFee: 420n };
    expect(chargeBandwidth(spent, 10n * TRX, 345n, NOW, priced, W)).toMatchObject({ source: "burn", netFee: 144_900n });
    expect(chargeBandwidth(spent, 344_999n, 345n, NOW, P, W)).toMatchObject({
      ok: false,
      code: "BANDWITH_ERROR",
      needed: 345_000n,
    });
  });

  it("takes staked bandwidth first and leaves the free allowance untouched", () => {
    const staker = account({ frozenForBandwidth: 1_000n * TRX });
    const charge = chargeBandwidth(staker, 0n, 345n, NOW, P, W);
    expect(charge).toMatchObject({ ok: true, source: "staked", netUsage: 345n, netFee: 0n });
    if (!charge.ok) throw new Error("unreachable");
    expect(charge.account).toMatchObject({ netUsage: 345n, latestConsumeTime: NOW, freeNetUsage: 0n });
  });
});

describe("24 h recovery (ResourceProcessor.increase)", () => {
  it("recovers linearly over 28,800 slots", () => {
    expect(increase(600n, 0n, 0n, 0n)).toBe(600n);
    expect(increase(600n, 0n, 0n, 7_200n)).toBe(450n);
    expect(increase(600n, 0n, 0n, WINDOW_SLOTS / 2n)).toBe(300n);
    expect(increase(600n, 0n, 0n, WINDOW_SLOTS)).toBe(0n);
  });

  it("gives back half of the free allowance halfway through the window", () => {
    const used = account({ freeNetUsage: 600n, latestConsumeFreeTime: 0n });
    expect(chargeBandwidth(used, 10n * TRX, 300n, 14_400n, P, W)).toMatchObject({ source: "free" });
    expect(chargeBandwidth(used, 10n * TRX, 301n, 14_400n, P, W)).toMatchObject({ source: "burn", netFee: 301_000n });
  });

  it("merges a new staked use into a shorter, usage-weighted window (increaseV2)", () => {
    const first = increaseWindowed(0n, 100n, 0n, 0n, 0n);
    expect(first).toEqual({ usage: 100n, windowSize: 28_800_000n });
    // Half recovered (50 left, 14,400 slots to go) + 100 new over 28,800: (50·14,400 + 100·28,800) / 150 = 24,000.
    expect(increaseWindowed(first.usage, 100n, 0n, 14_400n, first.windowSize)).toEqual({
      usage: 150n,
      windowSize: 24_000_000n,
    });
  });
});

describe("energy (VMActuator energy limit, ReceiptCapsule.payEnergyBill)", () => {
  const staker = account({ frozenForEnergy: 10_000n * TRX }); // 100,000 energy

  it("takes energy from stake, then burns the rest at getEnergyFee", () => {
    const call = { balance: 100n * TRX, feeLimit: 100n * TRX, energyUsed: 64_285n };
    const first = chargeEnergy({ ...call, caller: staker }, NOW, P, W);
    expect(first).toMatchObject({ ok: true, result: "SUCCESS", energyUsageTotal: 64_285n, energyUsage: 64_285n });
    expect(first).toMatchObject({ energyFee: 0n });
    if (!first.ok) throw new Error("unreachable");
    const second = chargeEnergy({ ...call, caller: first.caller }, NOW, P, W);
    expect(second).toMatchObject({ energyUsage: 35_715n, energyFee: (64_285n - 35_715n) * 100n });
  });

  it("fee_limit exceeded: OUT_OF_ENERGY spends the whole limit and burns fee_limit", () => {
    const bill = chargeEnergy(
      { caller: account(), balance: 100n * TRX, feeLimit: 5n * TRX, energyUsed: 64_285n },
      NOW,
      P,
      W,
    );
    expect(bill).toMatchObject({
      ok: true,
      result: "OUT_OF_ENERGY",
      energyLimit: 50_000n,
      energyUsageTotal: 50_000n,
      energyUsage: 0n,
      energyFee: 5n * TRX,
    });
  });

  it("fee_limit caps staked energy too: stake is spent first and only the remainder of fee_limit is burnt", () => {
    const small = account({ frozenForEnergy: 1_000n * TRX }); // 10,000 energy
    const bill = chargeEnergy(
      { caller: small, balance: 100n * TRX, feeLimit: 5n * TRX, energyUsed: 64_285n },
      NOW,
      P,
      W,
    );
    expect(bill).toMatchObject({ result: "OUT_OF_ENERGY", energyUsageTotal: 50_000n, energyUsage: 10_000n });
    expect(bill).toMatchObject({ energyFee: 4n * TRX });
  });

  it("a balance below fee_limit lowers the limit; REVERT bills what was used, EXCEPTION the whole limit", () => {
    const poor = { caller: account(), balance: 2n * TRX, feeLimit: 100n * TRX };
    expect(chargeEnergy({ ...poor, energyUsed: 64_285n }, NOW, P, W)).toMatchObject({
      result: "OUT_OF_ENERGY",
      energyFee: 2n * TRX,
    });
    const rich = { caller: account(), balance: 100n * TRX, feeLimit: 10n * TRX, energyUsed: 3_000n };
    expect(chargeEnergy({ ...rich, outcome: "REVERT" }, NOW, P, W)).toMatchObject({
      result: "REVERT",
      energyFee: 300_000n,
    });
    expect(chargeEnergy({ ...rich, outcome: "EXCEPTION" }, NOW, P, W)).toMatchObject({ energyFee: 10n * TRX });
  });

  it("shares the bill with the deployer by consume_user_resource_percent, from its stake only", () => {
    const origin = { account: account({ frozenForEnergy: 100_000n * TRX }), consumeUserResourcePercent: 30n };
    const call = { caller: account(), balance: 100n * TRX, feeLimit: 100n * TRX, energyUsed: 100_000n };
    const bill = chargeEnergy({ ...call, origin: { ...origin, originEnergyLimit: 10_000_000n } }, NOW, P, W);
    expect(bill).toMatchObject({ originEnergyUsage: 70_000n, energyUsage: 0n, energyFee: 3_000_000n });
    const capped = chargeEnergy({ ...call, origin: { ...origin, originEnergyLimit: 20_000n } }, NOW, P, W);
    expect(capped).toMatchObject({ originEnergyUsage: 20_000n, energyFee: 8_000_000n });
  });

  it("rejects a fee_limit above getMaxFeeLimit", () => {
    const bill = chargeEnergy(
      { caller: account(), balance: 0n, feeLimit: P.maxFeeLimit + 1n, energyUsed: 1n },
      NOW,
      P,
      W,
    );
    expect(bill).toMatchObject({ ok: false, code: "CONTRACT_VALIDATE_ERROR" });
  });

  it("raises a popular contract's energy_factor by 20% a cycle up to 3.4 and lowers it by 5% a cycle", () => {
    expect(nextEnergyFactor(0n, 6_000_000_000n, 1n, 2n, P)).toBe(2_000n);
    expect(nextEnergyFactor(34_000n, 6_000_000_000n, 1n, 2n, P)).toBe(34_000n);
    expect(nextEnergyFactor(34_000n, 0n, 1n, 2n, P)).toBe(31_800n);
  });
});

describe("account creation (consumeForCreateNewAccount + TransferActuator)", () => {
  it(
    "a TRX transfer to a new account burns 0.1 TRX for bandwidth " + "and 1 TRX in the actuator, never free bandwidth",
    () => {
      const charge = chargeAccountCreation(account(), 10n * TRX, 1n * TRX, 268n, NOW, P, W);
      expect(charge).toMatchObject({
        ok: true,
        netUsage: 0n,
        netFee: 100_000n,
        systemFee: 1_000_000n,
        burnt: 1_100_000n,
      });
      if (!charge.ok) throw new Error("unreachable");
      expect(charge.account.freeNetUsage).toBe(0n);
    },
  );

  it("pays the creation's bytes from staked bandwidth when it covers them, leaving only the 1 TRX", () => {
    const staker = account({ frozenForBandwidth: 1_000n * TRX });
    const charge = chargeAccountCreation(staker, 10n * TRX, 1n * TRX, 268n, NOW, P, W);
    expect(charge).toMatchObject({ ok: true, netUsage: 268n, netFee: 0n, burnt: 1_000_000n });
  });

  it("needs the 0.1 TRX for bandwidth, then amount + 1 TRX from what is left", () => {
    expect(chargeAccountCreation(account(), 99_999n, 1n, 268n, NOW, P, W)).toMatchObject({ code: "BANDWITH_ERROR" });
    expect(chargeAccountCreation(account(), 2_099_999n, TRX, 268n, NOW, P, W)).toMatchObject({
      code: "CONTRACT_VALIDATE_ERROR",
    });
    expect(chargeAccountCreation(account(), 2_100_000n, TRX, 268n, NOW, P, W)).toMatchObject({ ok: true });
  });
});

describe("limits from stake (calculateGlobal*LimitV2) and Stake 2.0", () => {
  it("gives each staker its share of the network total in proportion to its weight", () => {
    expect(limitFromStake(1_000n * TRX, P.totalEnergyLimit, W.totalEnergyWeight)).toBe(10_000n);
    expect(limitFromStake(2_000n * TRX, P.totalEnergyLimit, W.totalEnergyWeight)).toBe(20_000n);
    expect(limitFromStake(1_000n * TRX, P.totalEnergyLimit, 2n * W.totalEnergyWeight)).toBe(5_000n);
    expect(limitFromStake(1_500_000n, P.totalEnergyLimit, W.totalEnergyWeight)).toBe(15n); // fractional TRX count
    expect(limitFromStake(1_000n * TRX, P.totalEnergyLimit, 0n)).toBe(0n);
    expect(netLimit(account({ frozenForBandwidth: 300n * TRX, acquiredForBandwidth: 200n * TRX }), P, W)).toBe(500n);
  });

  it("moves whole-TRX weight on freeze/unfreeze and keeps it with the owner on delegation", () => {
    const frozen = freezeV2(account(), 10n * TRX, 1_500_000n, "ENERGY");
    expect(frozen).toMatchObject({ ok: true, weightDelta: 1n });
    expect(freezeV2(account(), 10n * TRX, 999_999n, "ENERGY")).toMatchObject({ ok: false });
    const owner = account({ frozenForEnergy: 1_000n * TRX });
    const unfrozen = unfreezeV2(owner, 400n * TRX, "ENERGY", 0n, 0, P);
    expect(unfrozen).toMatchObject({ ok: true, weightDelta: -400n, unfreezeExpireTime: 14n * 86_400_000n });

    // 4,000 of its 10,000 energy used: the 400 TRX backing that use cannot be delegated.
    const busy = { ...owner, energyUsage: 4_000n, latestConsumeTimeForEnergy: NOW };
    expect(delegatableSun(busy, "ENERGY", NOW, P, W)).toBe(600n * TRX);
    const given = delegate(owner, account(), 400n * TRX, "ENERGY", null, 0n, 1_000n * TRX);
    if (!given.ok) throw new Error(given.message);
    expect(energyLimit(given.owner, P, W)).toBe(6_000n);
    expect(energyLimit(given.receiver, P, W)).toBe(4_000n);
    expect(given.expireTime).toBe(0n);
    expect(delegate(owner, account(), TRX, "ENERGY", 0n, 0n, 1_000n * TRX)).toMatchObject({ expireTime: 259_200_000n });
    // The receiver used 1,000 of its 4,000 energy: undelegating 200 of its 400 TRX hands back half of that use.
    const used = { ...given.receiver, energyUsage: 1_000n, latestConsumeTimeForEnergy: NOW };
    expect(undelegateTransferUsage(used, 200n * TRX, "ENERGY", NOW, P, W)).toBe(500n);
  });
});
