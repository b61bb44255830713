import { formatUnits } from "viem";
import { chainConfig } from "@/lib/chains/chain-config";
import { readTronResources } from "@/lib/chains/tron/tron-account-resources";
import { TronNode } from "@/lib/chains/tron/tron-node";
import { roleAddress } from "@/lib/chains/wallets/role-address";
import { WALLET_ROLES } from "@/lib/chains/wallets/wallet-roles";
import type { Mode } from "@/lib/kernel/mode";
import type { Db } from "@/lib/platform/db/client";
import { query } from "@/lib/platform/db/query";

/** Sun as TRX with its six decimals, exact. */
const trx = (sun: bigint) => formatUnits(sun, 6);

/**
 * `cli tron resources`: what the treasury and the sweeper hold on Tron (TRX, stake, energy and bandwidth left,
 * pending unfreezes, delegations out), read from the node, and what the service's Tron transactions burnt in the
 * last 24 hours, per purpose, from the outbound journal.
 */
export async function tronResourcesReport(db: Db, mode: Mode) {
  const config = await chainConfig(db, mode, "tron");
  if (!config) return { object: "tron_resources", mode, error: "tron is not enabled in this mode" };
  const node = new TronNode(config);
  const roles = await Promise.all(
    WALLET_ROLES.map(async (role) => {
      const { address } = await roleAddress(db, mode, "tron", role);
      const r = await readTronResources(node, address);
      return {
        role,
        address,
        trx: trx(r.balanceSun),
        staked_for_energy_trx: trx(r.stakedForEnergySun),
        staked_for_bandwidth_trx: trx(r.stakedForBandwidthSun),
        delegated_out_energy_trx: trx(r.delegatedOutEnergySun),
        delegated_out_bandwidth_trx: trx(r.delegatedOutBandwidthSun),
        unfreezing: r.unfreezing.map((u) => ({
          trx: trx(u.amountSun),
          withdrawable_at: new Date(u.withdrawableAt).toISOString(),
        })),
        energy: {
          limit: r.energy.limit.toString(),
          used: r.energy.used.toString(),
          available: r.energy.available.toString(),
        },
        bandwidth: {
          free_left: (r.bandwidth.freeLimit - r.bandwidth.freeUsed).toString(),
          staked_left: (r.bandwidth.stakedLimit - r.bandwidth.stakedUsed).toString(),
        },
        delegates_to: r.delegatesTo,
      };
    }),
  );
  const spent = await query<{ purpose: string; transactions: string; fee: string }>(
    db,
    `select purpose, count(*)::text as transactions, coalesce(sum(fee_native), 0)::text as fee
       from outbound_transactions
      where mode = $1 and chain = 'tron' and fee_native is not null
        and coalesce(confirmed_at, updated_at) > now() - interval '24 hours'
      group by purpose order by purpose`,
    [mode],
  );
  const total = spent.reduce((sum, row) => sum + BigInt(row.fee), 0n);
  return {
    object: "tron_resources",
    mode,
    roles,
    burnt_last_24h: {
      trx: trx(total),
      by_purpose: spent.map((row) => ({
        purpose: row.purpose,
        transactions: Number(row.transactions),
        trx: trx(BigInt(row.fee)),
      })),
    },
  };
}
