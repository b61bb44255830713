import { familyTraits } from "@/lib/chains/family-traits";
import { createChainAdapter, sweepGasPlan } from "@/lib/chains/connect/chain-families";
import type { ChainConfig } from "@/lib/chains/chain-config";
import { type Db, inTransaction } from "@/lib/platform/db/client";
import { query } from "@/lib/platform/db/query";
import { log } from "@/lib/platform/log";
import { minOf } from "@/lib/kernel/bigint";
import { createOutbound } from "@/lib/money-out/outbound/create-outbound";
import { roleAddress } from "@/lib/chains/wallets/role-address";
import { type DepositHolding, depositHoldings } from "./deposit-holdings";
import { planBatchSweeps } from "./plan-batch-sweeps";
import type { PlannedSweep } from "./planned-sweep";

import { sweepStrategy } from "./sweep-strategy";
import { sweepThreshold } from "./sweep-threshold";
import { issuerFreezeCheck } from "./skip-frozen";

export type { PlannedSweep } from "./planned-sweep";

const PER_RUN = 50;

/**
 * Plans this run's sweeps of a (mode, chain) into the treasury: deposit addresses holding at least the
 * chain's threshold, largest first (with `needUnits`, payouts are waiting: the largest holdings whatever the
 * threshold, until that much is on its way). Per address, one transaction records the gas top-up the sweep
 * needs (EVM, Tron; from the sweeper) and the sweep itself, which waits for the top-up to confirm; a partial
 * unique index makes a second planner's sweep of the same address fail, so none is planned twice. EVM chains
 * with the `batch7702` strategy instead sweep many addresses per transaction, without gas (plan-batch-sweeps.ts);
 * Tron with the `stake` energy strategy lends the sweep the treasury's energy instead
 * (chains/tron/tron-staked-sweep.ts).
 * An address USDT's issuer has frozen is never swept, and a frozen treasury stops every sweep (skip-frozen.ts).
 * Sweeps move the service's own custody only: merchant balances do not change.
 */
export async function planSweeps(
  db: Db,
  config: ChainConfig,
  opts: { needUnits?: bigint } = {},
): Promise<PlannedSweep[]> {
  const threshold = sweepThreshold(config);
  const holdings = (await depositHoldings(db, config)).filter((h) => !h.sweeping && h.unsweptRaw > 0n);
  const frozen = await issuerFreezeCheck(db, config);
  if (await frozen.treasury()) return [];
  const chosen: DepositHolding[] = [];
  let covered = 0n;
  for (const h of holdings) {
    if (chosen.length >= PER_RUN) break;
    const needed = opts.needUnits !== undefined && covered < opts.needUnits;
    if (h.unsweptUnits < threshold && !needed) continue;
    if (await frozen.deposit(h.address, h.unsweptUnits)) continue;
    chosen.push(h);
    covered += h.unsweptUnits;
  }
  if (!chosen.length) return [];
  if (sweepStrategy(config) === "batch7702") return planBatchSweeps(db, config, chosen);
  const [treasury, sweeper] = await Promise.all([
    roleAddress(db, config.mode, config.chain, "treasury"),
    roleAddress(db, config.mode, config.chain, "sweeper"),
  ]);
  const adapter = createChainAdapter(config);
  const planned: PlannedSweep[] = [];
  for (const holding of chosen) {
    try {
      const onChain = await adapter.balances(holding.address);
      // The chain is the truth: never sweep more than the address holds (reconcile reports the difference).
      const raw = minOf(onChain.token, holding.unsweptRaw);
      if (raw <= 0n) {
        log.warn("deposit address holds less than its credited deposits", {
          mode: config.mode,
          chain: config.chain,
          address: holding.address,
        });
        continue;
      }
      // Tron's stake strategy: what is lent (nothing when the stake falls short and the sweep burns).
      const gas = await sweepGasPlan(
        config,
        { from: holding.address, to: treasury.address, raw, nativeBalance: onChain.native },
        () => lendingInFlight(db, config),
      );
      const lendSun = gas.delegateSun ?? 0n;
      const ids = await inTransaction(db, async (tx) => {
        const topup =
          gas.topupRaw > 0n
            ? await createOutbound(tx, {
                mode: config.mode,
                chain: config.chain,
                purpose: "gas_topup",
                signer: { role: "sweeper" },
                fromAddress: sweeper.address,
                toAddress: holding.address,
                asset: "native",
                rawAmount: gas.topupRaw,
                causeId: holding.address,
              })
            : null;
        // Lent before the sweep, reclaimed once it has ended whatever the outcome (both signed by the treasury).
        const lend = (
          purpose: "energy_delegate" | "energy_reclaim",
          after: string | undefined,
          settledAfter?: string,
        ) =>
          createOutbound(tx, {
            mode: config.mode,
            chain: config.chain,
            purpose,
            signer: { role: "treasury" },
            fromAddress: treasury.address,
            toAddress: holding.address,
            asset: "stake",
            rawAmount: lendSun,
            causeId: holding.address,
            after,
            options: settledAfter ? { settledAfter } : {},
          });
        const delegate = lendSun > 0n ? await lend("energy_delegate", topup?.id) : null;
        const sweep = await createOutbound(tx, {
          mode: config.mode,
          chain: config.chain,
          purpose: "sweep",
          signer: { role: "deposit", index: holding.derivationIndex },
          fromAddress: holding.address,
          toAddress: treasury.address,
          asset: "token",
          rawAmount: raw,
          causeId: holding.address,
          after: delegate?.id ?? topup?.id,
          options: {
            ...gas.options,
            // Solana: once nothing more is expected, the emptied token account is closed and its rent reclaimed.
            ...(familyTraits(config.chain).closesDepositTokenAccounts && holding.final && raw === onChain.token
              ? { closeAccount: true, rentTo: treasury.address }
              : {}),
          },
        });
        const reclaim = delegate ? await lend("energy_reclaim", delegate.id, sweep.id) : null;
        return { sweepId: sweep.id, topupId: topup?.id ?? null, delegateId: delegate?.id, reclaimId: reclaim?.id };
      });
      planned.push({ address: holding.address, raw, ...ids });
    } catch (err) {
      if (String(err).includes("outbound_one_open_sweep")) continue; // another planner got there first
      log.warn("could not plan a sweep", {
        mode: config.mode,
        chain: config.chain,
        address: holding.address,
        error: String(err),
      });
    }
  }
  if (planned.length) log.info("sweeps planned", { mode: config.mode, chain: config.chain, count: planned.length });
  return planned;
}

/** Stake the journal is lending and no block holds yet: the node's getcandelegatedmaxsize does not see it. */
async function lendingInFlight(db: Db, config: ChainConfig): Promise<bigint> {
  const [row] = await query<{ sun: string }>(
    db,
    `select coalesce(sum(raw_amount), 0)::text as sun from outbound_transactions
     where mode = $1 and chain = $2 and purpose = 'energy_delegate' and status in ('intent','signed','broadcast')`,
    [config.mode, config.chain],
  );
  return BigInt(row!.sun);
}
