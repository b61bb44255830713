import { createChainAdapter } from "@/lib/chains/connect/chain-families";
import type { ChainConfig } from "@/lib/chains/chain-config";
import { type Db, inTransaction } from "@/lib/platform/db/client";
import { query } from "@/lib/platform/db/query";
import { log } from "@/lib/platform/log";
import { createOutbound } from "@/lib/money-out/outbound/create-outbound";
import type { BatchMember } from "@/lib/money-out/outbound/outbound-types";
import { minOf } from "@/lib/kernel/bigint";
import { roleAddress } from "@/lib/chains/wallets/role-address";
import type { DepositHolding } from "./deposit-holdings";
import type { PlannedSweep } from "./planned-sweep";
import { ensureSweeperContract } from "./sweeper-contract";

/** Members per transaction: ~3M gas at 50 (well inside every chain's block), one transaction per planning run. */
export const BATCH_MAX = 50;

/** Some members were taken by another planner's open batch (`sweep_batch_one_open_member`). */
class MembersTaken extends Error {
  constructor(readonly free: Set<string>) {
    super("batch members taken by another planner");
  }
}

/**
 * Batched EIP-7702 sweeps of the chosen deposit addresses (strategy `batch7702`): no top-ups; per batch of up
 * to BATCH_MAX, one `sweep_batch` intent from the sweeper, which calls the sweeper contract's `sweepMany`
 * (authorizations for members not yet delegated are signed when the batch is signed). The sweeper contract is
 * deployed first, once, through the journal; the batch then waits for it (`after`). An address whose last
 * batch reverted is swept alone, so one address that cannot be swept never holds up others.
 */
export async function planBatchSweeps(db: Db, config: ChainConfig, chosen: DepositHolding[]): Promise<PlannedSweep[]> {
  const [treasury, sweeper] = await Promise.all([
    roleAddress(db, config.mode, config.chain, "treasury"),
    roleAddress(db, config.mode, config.chain, "sweeper"),
  ]);
  const scope = { mode: config.mode, chain: config.chain };
  let contract: Awaited<ReturnType<typeof ensureSweeperContract>>;
  try {
    contract = await ensureSweeperContract(db, config, treasury.address, sweeper.address);
  } catch (err) {
    log.error("batched sweeps cannot run: no sweeper contract", { ...scope, error: String(err) });
    return [];
  }
  const adapter = createChainAdapter(config);
  const onChain = await Promise.all(chosen.map((h) => adapter.balances(h.address)));
  const members: BatchMember[] = [];
  for (const [i, holding] of chosen.entries()) {
    // The chain is the truth: never sweep more than the address holds (reconcile reports the difference).
    const raw = minOf(onChain[i]!.token, holding.unsweptRaw);
    if (raw > 0n) members.push({ address: holding.address, index: holding.derivationIndex, raw: raw.toString() });
    else log.warn("deposit address holds less than its credited deposits", { ...scope, address: holding.address });
  }
  const isolated = await lastBatchReverted(db, config, members);
  const rest = members.filter((m) => !isolated.has(m.address));
  const groups = [...members.filter((m) => isolated.has(m.address)).map((m) => [m])];
  for (let i = 0; i < rest.length; i += BATCH_MAX) groups.push(rest.slice(i, i + BATCH_MAX));
  const planned: PlannedSweep[] = [];
  for (const group of groups) {
    try {
      planned.push(...(await recordBatch(db, config, group, contract, treasury.address, sweeper.address)));
    } catch (err) {
      log.warn("could not plan a batched sweep", { ...scope, members: group.length, error: String(err) });
    }
  }
  return planned;
}

/** The members whose most recent batch reverted on chain. */
async function lastBatchReverted(db: Db, config: ChainConfig, members: BatchMember[]): Promise<Set<string>> {
  if (!members.length) return new Set();
  const rows = await query<{ address: string; status: string }>(
    db,
    `select distinct on (m.address) m.address, o.status
     from sweep_batch_members m join outbound_transactions o on o.id = m.outbound_id
     where m.mode = $1 and m.chain = $2 and m.address = any($3::text[])
     order by m.address, m.created_at desc`,
    [config.mode, config.chain, members.map((m) => m.address)],
  );
  return new Set(rows.filter((r) => r.status === "reverted").map((r) => r.address));
}

/**
 * Records one batch and its members in one transaction. A member already in another open batch (a planner
 * racing this one) is left out and the batch recorded without it: no address is ever in two open batches.
 */
async function recordBatch(
  db: Db,
  config: ChainConfig,
  group: BatchMember[],
  contract: { address: string; after: string | null },
  treasury: string,
  sweeper: string,
): Promise<PlannedSweep[]> {
  let members = group;
  for (let attempt = 0; attempt < 3 && members.length; attempt++) {
    const batch = members;
    try {
      const id = await inTransaction(db, async (tx) => {
        const intent = await createOutbound(tx, {
          mode: config.mode,
          chain: config.chain,
          purpose: "sweep_batch",
          signer: { role: "sweeper" },
          fromAddress: sweeper,
          toAddress: treasury,
          asset: "token",
          rawAmount: batch.reduce((sum, m) => sum + BigInt(m.raw), 0n),
          after: contract.after ?? undefined,
          options: { batch: { contract: contract.address, members: batch } },
        });
        const inserted = await query<{ address: string }>(
          tx,
          `insert into sweep_batch_members (outbound_id, mode, chain, address, derivation_index, raw_amount)
           select $1, $2, $3, m.address, m.idx, m.raw
           from unnest($4::text[], $5::int[], $6::numeric[]) as m(address, idx, raw)
           on conflict (mode, chain, address) where open do nothing
           returning address`,
          [
            intent.id,
            config.mode,
            config.chain,
            batch.map((m) => m.address),
            batch.map((m) => m.index),
            batch.map((m) => m.raw),
          ],
        );
        if (inserted.length < batch.length) throw new MembersTaken(new Set(inserted.map((r) => r.address)));
        return intent.id;
      });
      log.info("batched sweep planned", { mode: config.mode, chain: config.chain, id, members: batch.length });
      return batch.map((m) => ({ address: m.address, raw: BigInt(m.raw), sweepId: id, topupId: null }));
    } catch (err) {
      if (!(err instanceof MembersTaken)) throw err;
      members = batch.filter((m) => err.free.has(m.address));
    }
  }
  return [];
}
