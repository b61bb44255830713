import { addressKey } from "@/lib/chains/address-key";
import type { ChainConfig } from "@/lib/chains/chain-config";
import type { Db } from "@/lib/platform/db/client";
import { execute } from "@/lib/platform/db/query";
import { denialOf } from "@/lib/money-out/destinations/deny-list";
import { type DestinationScreening, screenDestination } from "@/lib/money-out/destinations/screen-destination";
import type { OutboundHooks } from "@/lib/money-out/outbound/outbound-hooks";
import type { OutboundTrigger } from "@/lib/money-out/outbound/outbound-lifecycle";
import type { OutboundRow } from "@/lib/money-out/outbound/outbound-row";
import type { PayoutBatchMember } from "@/lib/money-out/outbound/outbound-types";
import { transitionOutbound } from "@/lib/money-out/outbound/transition-outbound";
import { followTransfer } from "./cause-hooks";
import { lockCause, moveCause } from "./move-cause";
import type { CauseExecution } from "./take-cause-step";
import type { CauseRow } from "./transfer-kind";

type Screenings = Map<string, DestinationScreening>;

/** A batch's members, in the order their payouts are locked (one order for every transaction: no deadlock). */
const membersOf = (intent: OutboundRow): PayoutBatchMember[] =>
  [...(intent.options.payoutBatch?.members ?? [])].sort((a, b) => a.payoutId.localeCompare(b.payoutId));

/** Every member's destination screened just before signing; one unreadable answer and the batch waits. */
async function screenMembers(config: ChainConfig, intent: OutboundRow): Promise<Screenings | null> {
  const members = membersOf(intent);
  const answers = await Promise.all(members.map((m) => screenDestination(config, m.payoutId, m.address)));
  if (answers.some((a) => a === null)) return null;
  return new Map(members.map((m, i) => [addressKey(m.address), answers[i]!]));
}

/**
 * In the signing transaction: the deny-list again, with the screening, for every member. Denied members are
 * `blocked` (refunded, `payout.blocked`) and leave the batch, and the signing is refused this round: the rest
 * is screened and signed on the next. A batch left empty is given up, never signed.
 */
async function refuseBatchSigning<Row extends CauseRow>(
  { kind }: CauseExecution<Row>,
  tx: Db,
  intent: OutboundRow,
  screened: Screenings,
): Promise<boolean> {
  const members = membersOf(intent);
  const kept: PayoutBatchMember[] = [];
  for (const member of members) {
    const screening = screened.get(addressKey(member.address));
    if (!screening) throw new Error(`${intent.id}: ${member.payoutId}'s destination was not screened`);
    const failureCode = await denialOf(tx, intent.chain, member.address, screening);
    if (!failureCode) {
      kept.push(member);
      continue;
    }
    const payout = await lockCause(tx, kind, member.payoutId);
    if (payout?.status === "pending") await moveCause(tx, kind, payout, "denied", { failureCode });
    await execute(tx, "delete from payout_batch_members where outbound_id = $1 and payout_id = $2", [
      intent.id,
      member.payoutId,
    ]);
  }
  if (kept.length === members.length) return false;
  await execute(
    tx,
    `update outbound_transactions set options = jsonb_set(options, '{payoutBatch,members}', $2::jsonb),
            raw_amount = $3::numeric, updated_at = now() where id = $1`,
    [intent.id, JSON.stringify(kept), kept.reduce((sum, m) => sum + BigInt(m.raw), 0n).toString()],
  );
  if (!kept.length)
    await transitionOutbound(tx, intent, "given_up", { failure: "every payout in the batch was denied" });
  return true;
}

/**
 * Each member payout moves with the batch as a payout moves with its own transfer
 * (lib/money-out/transfers/cause-hooks.ts), with the batch's `tx_hash`, except: a batch of several that reverted paid
 * nobody, so its members go back to `pending` and are sent again, alone; a batch given up before it was signed lets its
 * members be queued again.
 */
async function onBatchTransfer<Row extends CauseRow>(
  { kind, enqueue }: CauseExecution<Row>,
  tx: Db,
  intent: OutboundRow,
  trigger: OutboundTrigger,
): Promise<void> {
  const members = membersOf(intent);
  // A batch of one is a plain transfer (payoutBatchCall): its revert is the payout's own, as when sent alone.
  const alone = members.length === 1;
  for (const member of members) {
    const asOwn = { ...intent, purpose: kind.purpose, causeId: member.payoutId };
    if ((trigger !== "reverted" && trigger !== "given_up") || (alone && trigger === "reverted")) {
      await followTransfer(kind, tx, asOwn, trigger);
      continue;
    }
    const payout = await lockCause(tx, kind, member.payoutId);
    if (!payout || payout.outboundId !== intent.id) continue;
    if (payout.status === "processing" && trigger === "given_up") {
      await followTransfer(kind, tx, asOwn, trigger);
      continue;
    }
    if (payout.status === "processing") await moveCause(tx, kind, payout, "batch_reverted", { txHash: null });
    else if (payout.status !== "pending") continue;
    await execute(tx, `update ${kind.table} set outbound_id = null, updated_at = now() where id = $1`, [payout.id]);
    await enqueue(tx, payout.id);
  }
}

/** A batch's part in the outbound engine: its members screened, refused, and moved with it (see above). */
export function payoutBatchHooks<Row extends CauseRow>(execution: CauseExecution<Row>): OutboundHooks<Screenings> {
  return {
    screen: screenMembers,
    refuseSigning: (tx, intent, screened) => refuseBatchSigning(execution, tx, intent, screened),
    onTransition: (tx, intent, trigger) => onBatchTransfer(execution, tx, intent, trigger),
    async onConfirmations(db, intent) {
      await execute(
        db,
        `update ${execution.kind.table} set confirmations = $2, updated_at = now() ` +
          "where outbound_id = $1 and status = 'processing'",
        [intent.id, intent.confirmations],
      );
    },
  };
}
