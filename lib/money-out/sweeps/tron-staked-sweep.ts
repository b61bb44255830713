import type { ChainConfig } from "@/lib/chains/chain-config";
import { quoteEnergyLending } from "@/lib/chains/tron/tron-energy";
import { quoteTokenTransfer } from "@/lib/chains/tron/tron-fees";
import { TronNode } from "@/lib/chains/tron/tron-node";
import type { Db } from "@/lib/platform/db/client";
import { query } from "@/lib/platform/db/query";
import { log } from "@/lib/platform/log";
import { countSignal } from "@/lib/platform/metrics/signals";
import type { OutboundOptions } from "@/lib/money-out/outbound/outbound-types";
import { tronBurnPlan } from "@/lib/chains/tron/tron-sweep-gas";

/** A TRX transfer of any amount creates the recipient's account; a delegation needs one to exist. */
export const ACTIVATION_SUN = 1n;

export interface StakedSweepPlan {
  /** TRX the sweeper sends first: the activation, or the bandwidth when the free allowance is spent (or, when
   * nothing is lent, the fee_limit too). */
  topupRaw: bigint;
  options: OutboundOptions;
  /** The treasury's stake (sun) whose energy is lent to the deposit address for the sweep, then reclaimed; 0 when
   * the stake falls short and the sweep burns. */
  delegateSun: bigint;
}

/**
 * A Tron sweep paid with the treasury's staked energy (TRON_ENERGY_STRATEGY=stake, docs/CUSTODY.md "Tron energy"):
 * the deposit address gets an account if it has none, the energy the node estimates for its transfer (with the fee
 * margin) lent from the treasury's stake, and TRX for bandwidth only when its free allowance is spent. When the
 * stake cannot lend that much now, less the delegations the journal has not landed yet, nothing is lent: the sweep
 * burns TRX within its fee_limit, as with `burn` (the same quote), and that is logged and counted.
 */
export async function stakedSweepPlan(
  db: Db,
  config: ChainConfig,
  treasury: string,
  deposit: string,
  raw: bigint,
  nativeBalance: bigint,
): Promise<StakedSweepPlan> {
  const node = new TronNode(config);
  const transfer = await quoteTokenTransfer(node, config.tokenAddress, deposit, treasury, raw, config.maxFeeLimitSun!);
  const [lending, pendingSun] = await Promise.all([
    quoteEnergyLending(node, treasury, deposit, transfer.energy),
    delegationsOnTheirWay(db, config),
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
    return { ...tronBurnPlan(transfer, nativeBalance), delegateSun: 0n };
  }
  const bandwidthSun = lending.receiverHasFreeBandwidth ? 0n : transfer.bandwidthSun;
  const short = bandwidthSun > nativeBalance ? bandwidthSun - nativeBalance : 0n;
  return {
    topupRaw: lending.receiverExists ? short : short > ACTIVATION_SUN ? short : ACTIVATION_SUN,
    options: { feeLimitSun: transfer.feeLimitSun.toString() },
    delegateSun: lending.stakeSun,
  };
}

/** Stake the journal is lending and no block holds yet: the node's getcandelegatedmaxsize does not see it. */
async function delegationsOnTheirWay(db: Db, config: ChainConfig): Promise<bigint> {
  const [row] = await query<{ sun: string }>(
    db,
    `select coalesce(sum(raw_amount), 0)::text as sun from outbound_transactions
     where mode = $1 and chain = $2 and purpose = 'energy_delegate' and status in ('intent','signed','broadcast')`,
    [config.mode, config.chain],
  );
  return BigInt(row!.sun);
}
