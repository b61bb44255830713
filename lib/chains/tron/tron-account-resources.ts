import type { TronNode } from "./tron-node";

/** One role's Tron resources as the node reports them (sun for TRX, plain units for energy and bandwidth). */
export interface TronAccountResources {
  balanceSun: bigint;
  stakedForEnergySun: bigint;
  stakedForBandwidthSun: bigint;
  /** Own stake lent to other accounts (delegateresource), by resource. */
  delegatedOutEnergySun: bigint;
  delegatedOutBandwidthSun: bigint;
  /** Unfrozen TRX waiting for the unfreeze delay, with when each becomes withdrawable (ms). */
  unfreezing: { amountSun: bigint; withdrawableAt: number }[];
  energy: { limit: bigint; used: bigint; available: bigint };
  bandwidth: { freeLimit: bigint; freeUsed: bigint; stakedLimit: bigint; stakedUsed: bigint };
  /** Accounts this one delegates to (getdelegatedresourceaccountindexv2). */
  delegatesTo: string[];
}

interface AccountAnswer {
  balance?: number;
  frozenV2?: { type?: string; amount?: number }[];
  unfrozenV2?: { unfreeze_amount?: number; unfreeze_expire_time?: number }[];
  delegated_frozenV2_balance_for_bandwidth?: number;
  account_resource?: { delegated_frozenV2_balance_for_energy?: number };
}
/** getaccountresource's answer (java-tron omits zeros). */
export interface ResourceAnswer {
  freeNetUsed?: number;
  freeNetLimit?: number;
  NetUsed?: number;
  NetLimit?: number;
  EnergyUsed?: number;
  EnergyLimit?: number;
  TotalEnergyLimit?: number;
  TotalEnergyWeight?: number;
}

/** A java-tron number field, absent when zero. */
export const big = (n: number | undefined) => BigInt(n ?? 0);

/** getaccount, getaccountresource and getdelegatedresourceaccountindexv2 for one address (java-tron omits zeros). */
export async function readTronResources(node: TronNode, address: string): Promise<TronAccountResources> {
  const [account, resources, index] = await Promise.all([
    node.wallet<AccountAnswer>("getaccount", { address, visible: true }),
    node.wallet<ResourceAnswer>("getaccountresource", { address, visible: true }),
    node.wallet<{ toAccounts?: string[] }>("getdelegatedresourceaccountindexv2", { value: address, visible: true }),
  ]);
  const staked = (type: string | undefined) =>
    big(account.frozenV2?.find((f) => (f.type ?? "BANDWIDTH") === (type ?? "BANDWIDTH"))?.amount);
  const limit = big(resources.EnergyLimit);
  const used = big(resources.EnergyUsed);
  return {
    balanceSun: big(account.balance),
    stakedForEnergySun: staked("ENERGY"),
    stakedForBandwidthSun: staked("BANDWIDTH"),
    delegatedOutEnergySun: big(account.account_resource?.delegated_frozenV2_balance_for_energy),
    delegatedOutBandwidthSun: big(account.delegated_frozenV2_balance_for_bandwidth),
    unfreezing: (account.unfrozenV2 ?? []).map((u) => ({
      amountSun: big(u.unfreeze_amount),
      withdrawableAt: u.unfreeze_expire_time ?? 0,
    })),
    energy: { limit, used, available: limit > used ? limit - used : 0n },
    bandwidth: {
      freeLimit: big(resources.freeNetLimit),
      freeUsed: big(resources.freeNetUsed),
      stakedLimit: big(resources.NetLimit),
      stakedUsed: big(resources.NetUsed),
    },
    delegatesTo: index.toAccounts ?? [],
  };
}

/** The TRX an account owns outside its balance: staked (Stake 2.0, lent out or not) and unfreezing (sun). */
export function tronStakeSun(r: TronAccountResources): bigint {
  return (
    r.stakedForEnergySun +
    r.stakedForBandwidthSun +
    r.delegatedOutEnergySun +
    r.delegatedOutBandwidthSun +
    r.unfreezing.reduce((sum, u) => sum + u.amountSun, 0n)
  );
}
