import { fromUsdtUnits } from "@/lib/chains/chain-adapter";
import type { ChainConfig } from "@/lib/chains/chain-config";
import type { Db } from "@/lib/platform/db/client";
import { execute, query } from "@/lib/platform/db/query";
import { log } from "@/lib/platform/log";
import { createOutbound } from "@/lib/money-out/outbound/create-outbound";
import type { PayoutBatchMember } from "@/lib/money-out/outbound/outbound-types";
import { treasuryCovers, type TreasuryLiquidity } from "@/lib/money-out/outbound/treasury-queue";
import { ensurePayoutBatcher, type PayoutBatcher } from "./ensure-payout-batcher";

/** Members per batch: at most ~5M gas (payoutBatchGas), inside every EVM chain's block. */
export const PAYOUT_BATCH_MAX = 50;

/** A round's batch contract, and the causes that go alone because their last batch reverted. */
export interface BatchRound {
  batcher: PayoutBatcher;
  alone: Set<string>;
}

/**
 * What a round of batched causes needs before its transaction (network reads): the PayoutBatcher set up, and which
 * causes go alone. Null when no batch contract can be had: they are paid one by one.
 */
export async function prepareBatchRound(db: Db, config: ChainConfig, ids: string[]): Promise<BatchRound | null> {
  let batcher: PayoutBatcher;
  try {
    batcher = await ensurePayoutBatcher(db, config);
  } catch (err) {
    // No batch contract can be had (no CREATE2 deployer; a deployment that holds no code): paid alone.
    log.error("payouts cannot be batched: sent one by one", {
      mode: config.mode,
      chain: config.chain,
      error: String(err),
    });
    return null;
  }
  return { batcher, alone: await lastBatchReverted(db, ids) };
}

/** The batches a payout was sent in (its detail page lists them with its own transfers). */
export async function batchesOf(db: Db, payoutId: string): Promise<string[]> {
  const rows = await query<{ outbound_id: string }>(
    db,
    "select outbound_id from payout_batch_members where payout_id = $1",
    [payoutId],
  );
  return rows.map((r) => r.outbound_id);
}

/** Of these payouts, those whose most recent batch reverted: each is then sent alone, so it cannot hold others back. */
export async function lastBatchReverted(db: Db, payoutIds: string[]): Promise<Set<string>> {
  const rows = await query<{ payout_id: string; status: string }>(
    db,
    `select distinct on (m.payout_id) m.payout_id, o.status
       from payout_batch_members m join outbound_transactions o on o.id = m.outbound_id
      where m.payout_id = any($1::text[]) order by m.payout_id, m.created_at desc`,
    [payoutIds],
  );
  return new Set(rows.filter((r) => r.status === "reverted").map((r) => r.payout_id));
}

/**
 * Under the treasury queue's lock: adds the payout to its (mode, chain)'s batch through the same contract still
 * taking members, or opens one (waiting for the PayoutBatcher's setup if it has one). Returns the batch's id, or
 * null when the treasury, less what it still owes, cannot cover the payout. The batch fills until the chain's
 * outbound leader takes it (track-outbound.ts closes it to members before it screens and signs it).
 */
export async function queueInBatch(
  tx: Db,
  config: ChainConfig,
  liquidity: TreasuryLiquidity,
  payout: { id: string; toAddress: string; amountUnits: bigint },
  batcher: PayoutBatcher,
): Promise<string | null> {
  const raw = fromUsdtUnits(payout.amountUnits, config.decimals);
  if (!(await treasuryCovers(tx, config, liquidity, raw))) return null;
  const member: PayoutBatchMember = { payoutId: payout.id, address: payout.toAddress, raw: raw.toString() };
  // The row lock of `for update` re-reads the batch once it is free: one the leader closed meanwhile is skipped.
  const [joined] = await query<{ id: string }>(
    tx,
    `update outbound_transactions
        set options = jsonb_set(options, '{payoutBatch,members}', (options->'payoutBatch'->'members') || $1::jsonb),
            raw_amount = raw_amount + $2::numeric, updated_at = now()
      where id = (select id from outbound_transactions
                   where mode = $3 and chain = $4 and purpose = 'payout_batch' and status = 'intent'
                     and options->>'appendable' = 'true' and options->'payoutBatch'->>'contract' = $6
                     and jsonb_array_length(options->'payoutBatch'->'members') < $5
                   order by created_at limit 1 for update)
      returning id`,
    [JSON.stringify([member]), raw.toString(), config.mode, config.chain, PAYOUT_BATCH_MAX, batcher.address],
  );
  const batchId =
    joined?.id ??
    (
      await createOutbound(tx, {
        mode: config.mode,
        chain: config.chain,
        purpose: "payout_batch",
        signer: { role: "treasury" },
        fromAddress: liquidity.address,
        // The USDT goes to the payees, through the contract: never back to the treasury (custody books, settling).
        toAddress: batcher.address,
        asset: "token",
        rawAmount: raw,
        after: batcher.after ?? undefined,
        options: { payoutBatch: { contract: batcher.address, members: [member] }, appendable: true },
      })
    ).id;
  await execute(tx, "insert into payout_batch_members (outbound_id, payout_id) values ($1, $2)", [batchId, payout.id]);
  return batchId;
}
