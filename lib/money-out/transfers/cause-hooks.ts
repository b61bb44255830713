import { denialOf } from "@/lib/money-out/destinations/deny-list";
import {
  type DestinationScreening,
  screenBeforeSigning,
  UNSCREENED,
} from "@/lib/money-out/destinations/screen-destination";
import type { OutboundHooks } from "@/lib/money-out/outbound/outbound-hooks";
import type { OutboundTrigger } from "@/lib/money-out/outbound/outbound-lifecycle";
import type { OutboundRow } from "@/lib/money-out/outbound/outbound-row";
import { transitionOutbound } from "@/lib/money-out/outbound/transition-outbound";
import type { Db } from "@/lib/platform/db/client";
import { execute } from "@/lib/platform/db/query";
import { lockCause, moveCause } from "./move-cause";
import { TRANSFER_FAILURE_CODES } from "./transfer-failures";
import type { CauseRow, TransferKind } from "./transfer-kind";

/** The cause's id when the transfer is one of this kind's, else null (the engine calls every kind's hooks). */
const causeIdOf = (cause: { purpose: string }, intent: OutboundRow) =>
  intent.purpose === cause.purpose ? intent.causeId : null;

/**
 * A cause's part in its transfer (lib/money-out/outbound/outbound-hooks.ts): its destination screened just before
 * signing (sanctions oracle, issuer freeze) and the deny-list read again in the signing transaction (an address
 * may have been listed since the cause was queued): a refused destination is `denied` and the transfer given up,
 * never signed. Then the cause moves with its transfer, in the transfer's transaction: signed → `processing`
 * with its `tx_hash`; re-signed or landed → the new hash and confirmations; confirmed → `settled`; reverted, or
 * given up after signing → `transfer_failed`, the amount back in `available`.
 */
export function causeHooks<Row extends CauseRow, Trigger extends string>(
  cause: TransferKind<Row, Trigger>,
): OutboundHooks<DestinationScreening> {
  return {
    screen: screenBeforeSigning(cause.purpose),
    async refuseSigning(tx, intent, screening = UNSCREENED) {
      const id = causeIdOf(cause, intent);
      if (!id) return false;
      const failureCode = await denialOf(tx, intent.chain, intent.toAddress, screening);
      if (!failureCode) return false;
      const row = await lockCause(tx, cause, id);
      if (row?.status === "pending") await moveCause(tx, cause, row, "denied", { failureCode });
      await transitionOutbound(tx, intent, "given_up", { failure: TRANSFER_FAILURE_CODES[failureCode] });
      return true;
    },
    onTransition: (tx, intent, trigger) => followTransfer(cause, tx, intent, trigger),
    async onConfirmations(db, intent) {
      const id = causeIdOf(cause, intent);
      if (!id) return;
      await execute(
        db,
        `update ${cause.table} set confirmations = $2, updated_at = now() where id = $1 and status = 'processing'`,
        [id, intent.confirmations],
      );
    },
  };
}

/** One transition of a cause's transfer, applied to the cause (exported for batches: each member follows it). */
export async function followTransfer<Row extends CauseRow, Trigger extends string>(
  cause: TransferKind<Row, Trigger>,
  tx: Db,
  intent: OutboundRow,
  trigger: OutboundTrigger,
): Promise<void> {
  const id = causeIdOf(cause, intent);
  if (!id) return;
  const row = await lockCause(tx, cause, id);
  if (!row) return;
  switch (trigger) {
    case "signed":
      if (row.status === "pending") await moveCause(tx, cause, row, "signed", { txHash: intent.txHash });
      return;
    case "resigned":
    case "landed":
    case "reorged":
      await execute(
        tx,
        `update ${cause.table} set tx_hash = coalesce($2, tx_hash), ` +
          `confirmations = $3, updated_at = now() where id = $1`,
        [row.id, intent.txHash, trigger === "reorged" ? null : intent.confirmations],
      );
      return;
    case "confirmed":
      if (row.status === "processing")
        await moveCause(tx, cause, row, "settled", {
          txHash: intent.txHash,
          confirmations: intent.confirmations,
          settledAt: intent.confirmedAt ?? new Date(),
        });
      return;
    case "reverted":
      if (row.status === "processing")
        await moveCause(tx, cause, row, "transfer_failed", { txHash: intent.txHash, failureCode: "transfer_reverted" });
      return;
    case "given_up":
      if (row.status === "processing")
        await moveCause(tx, cause, row, "transfer_failed", { failureCode: "transfer_expired" });
      return;
    default:
      return;
  }
}
