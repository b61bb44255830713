import { type Db, inTransaction } from "@/lib/platform/db/client";
import { execute, query } from "@/lib/platform/db/query";
import { hooksOf } from "./outbound-hooks";
import { OUTBOUND_LIFECYCLE, type OutboundTrigger } from "./outbound-lifecycle";
import { outboundRow, type OutboundRow } from "./outbound-row";
import { postOutboundCustody } from "./outbound-custody";
import { attributeOutboundCost } from "../costs/attribute-cost";
import { CANDIDATE_LIFECYCLE, type CandidateTrigger } from "./candidate-lifecycle";
import type { CandidateStatus } from "./outbound-types";

type Fields = Partial<{
  nonce: bigint | null;
  txHash: string | null;
  blockNumber: number | null;
  blockHash: string | null;
  confirmations: number | null;
  feeNative: bigint | null;
  rentPaidNative: bigint | null;
  rentReturnedNative: bigint | null;
  feeUsage: Record<string, string> | null;
  failure: string | null;
  resigns: number;
  confirmedAt: Date;
}>;

const COLUMN: Record<keyof Fields, string> = {
  nonce: "nonce",
  txHash: "tx_hash",
  blockNumber: "block_number",
  blockHash: "block_hash",
  confirmations: "confirmations",
  feeNative: "fee_native",
  rentPaidNative: "rent_paid_native",
  rentReturnedNative: "rent_returned_native",
  feeUsage: "fee_usage",
  failure: "failure",
  resigns: "resigns",
  confirmedAt: "confirmed_at",
};

/**
 * Moves an intent by the lifecycle table (an illegal trigger throws) and sets the fields that go with it,
 * guarded by the status it was read in: a stale read changes nothing and returns false. The custody books move
 * in the same transaction (lib/money-out/outbound/outbound-custody.ts), its fee is attributed when it ends
 * (lib/money-out/costs/attribute-cost.ts), and so does the domain the transfer is for (its
 * hooks: outbound-hooks.ts); reaching a terminal status closes the intent's batch members
 * (`sweep_batch_members.open`).
 */
export async function transitionOutbound(
  db: Db,
  intent: OutboundRow,
  trigger: OutboundTrigger | null,
  fields: Fields = {},
): Promise<boolean> {
  const to = trigger === null ? intent.status : OUTBOUND_LIFECYCLE.transition(intent.status, trigger).to;
  const entries = Object.entries(fields) as [keyof Fields, unknown][];
  const sets = entries.map(([key], i) => `${COLUMN[key]} = $${i + 4}`);
  const values = entries.map(([key, v]) =>
    typeof v === "bigint" ? v.toString() : key === "feeUsage" && v !== null ? JSON.stringify(v) : v,
  );
  // Only a trigger can move the books or close a batch; a bare field update needs no transaction of its own.
  const atomic = <T>(fn: (tx: Db) => Promise<T>) => (trigger ? inTransaction(db, fn) : fn(db));
  return atomic(async (tx) => {
    const [row] = await query(
      tx,
      `update outbound_transactions set status = $3, updated_at = now()${sets.map((s) => `, ${s}`).join("")}
       where id = $1 and status = $2 returning ${outboundRow.columns}`,
      [intent.id, intent.status, to, ...values],
    );
    if (!row) return false;
    // A batched sweep's members close with it, in the same transaction: they may then be planned again.
    if (OUTBOUND_LIFECYCLE.isTerminal(to))
      await execute(tx, "update sweep_batch_members set open = false where outbound_id = $1 and open", [intent.id]);
    const updated = outboundRow.map(row);
    if (trigger) {
      await postOutboundCustody(tx, intent.status, updated, trigger);
      if (trigger === "confirmed" || trigger === "reverted") await attributeOutboundCost(tx, updated);
      await hooksOf(updated.purpose).onTransition?.(tx, updated, trigger);
    } else if (fields.confirmations !== undefined) await hooksOf(updated.purpose).onConfirmations?.(tx, updated);
    return true;
  });
}

/**
 * Moves a candidate by CANDIDATE_LIFECYCLE from the status it was read with (an illegal trigger throws), and,
 * when it landed or left its block, sets its block and fee.
 */
export async function setCandidate(
  db: Db,
  candidate: { id: number; status: CandidateStatus },
  trigger: CandidateTrigger,
  extra: {
    blockNumber?: number | null;
    blockHash?: string | null;
    feeNative?: bigint | null;
    broadcastHead?: number;
  } = {},
): Promise<void> {
  const { to } = CANDIDATE_LIFECYCLE.transition(candidate.status, trigger);
  await execute(
    db,
    `update outbound_candidates set status = $2, updated_at = now(),
       block_number = case when $3::boolean then $4::bigint else block_number end,
       block_hash = case when $3::boolean then $5 else block_hash end,
       fee_native = case when $3::boolean then $6::numeric else fee_native end,
       broadcast_head = coalesce(broadcast_head, $7::bigint),
       broadcast_at = case when $2 = 'broadcast' then coalesce(broadcast_at, now()) else broadcast_at end
     where id = $1`,
    [
      candidate.id,
      to,
      "blockNumber" in extra,
      extra.blockNumber ?? null,
      extra.blockHash ?? null,
      extra.feeNative?.toString() ?? null,
      extra.broadcastHead ?? null,
    ],
  );
}

/**
 * Closes every still-open candidate of an intent but `keepId` by `trigger` (expired: none can land; superseded:
 * another one landed), the statuses it moves from taken from CANDIDATE_LIFECYCLE.
 */
export async function closeOpenCandidates(
  db: Db,
  outboundId: string,
  trigger: "expired" | "superseded",
  keepId: number | null = null,
): Promise<void> {
  const { from, to } = CANDIDATE_LIFECYCLE.bulk(trigger);
  await execute(
    db,
    `update outbound_candidates set status = $2, updated_at = now()
     where outbound_id = $1 and ($3::bigint is null or id <> $3) and status = any($4)`,
    [outboundId, to, keepId, from],
  );
}
