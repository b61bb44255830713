import { maxOf } from "@/lib/kernel/bigint";
import { log } from "@/lib/platform/log";
import { countSignal } from "@/lib/platform/metrics/signals";
import type { ChainConfig } from "../chain-config";
import type { SweepGas } from "../outbound-intent";
import { quoteEnergyLending } from "./tron-energy";
import type { TronTransferQuote } from "./tron-fees";
import type { TronNode } from "./tron-node";

/** A TRX transfer of any amount creates the recipient's account; a delegation needs one to exist. */
export const ACTIVATION_SUN = 1n;

/**
 * A Tron sweep paid with the treasury's staked energy (TRON_ENERGY_STRATEGY=stake, docs/CUSTODY.md "Tron energy"):
 * the deposit address gets an account if it has none, the energy the node estimates for its transfer (with the fee
 * margin) lent from the treasury's stake, and TRX for bandwidth only when its free allowance is spent. When the
 * stake cannot lend that much now, less the delegations the journal has not landed yet (`lendingInFlight`: the
 * node does not see them), nothing is lent (null): the sweep burns TRX within its fee_limit, as with `burn` (the
 * same quote), and that is logged and counted.
 */
export async function stakedSweepPlan(
  config: ChainConfig,
  node: TronNode,
  sweep: { deposit: string; treasury: string; nativeBalance: bigint; transfer: TronTransferQuote },
  lendingInFlight: () => Promise<bigint>,
): Promise<SweepGas | null> {
  const { deposit, treasury, nativeBalance, transfer } = sweep;
  const [lending, pendingSun] = await Promise.all([
    quoteEnergyLending(node, treasury, deposit, transfer.energy),
    lendingInFlight(),
  ]);
  if (lending.lendableSun - pendingSun < lending.stakeSun) {
    log.warn("the treasury's staked energy is short: this Tron sweep burns TRX for its energy", {
      mode: config.mode,
      address: deposit,
      energy: transfer.energy.toString(),
      stake_needed_sun: lending.stakeSun.toString(),
      lendable_sun: (lending.lendableSun - pendingSun).toString(),
    });
    countSignal("tron_energy_burnt_instead", { purpose: "sweep" });
    return null;
  }
  const bandwidthSun = lending.receiverHasFreeBandwidth ? 0n : transfer.bandwidthSun;
  const short = maxOf(bandwidthSun - nativeBalance, 0n);
  return {
    topupRaw: lending.receiverExists ? short : short > ACTIVATION_SUN ? short : ACTIVATION_SUN,
    options: { feeLimitSun: transfer.feeLimitSun.toString() },
    delegateSun: lending.stakeSun,
  };
}
