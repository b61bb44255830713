import { causeHooks } from "@/lib/money-out/transfers/cause-hooks";
import { causeRows } from "@/lib/money-out/transfers/move-cause";
import type { TransferKind } from "@/lib/money-out/transfers/transfer-kind";
import { execute } from "@/lib/platform/db/query";
import { REFUND_FAILURE_CODES, REFUND_LIFECYCLE, type RefundFailureCode, type RefundTrigger } from "./refund-lifecycle";
import { type RefundRow, refundRow } from "./refund-row";
import { serializeRefund } from "./serialize-refund";

/**
 * A refund as a kind of money out (lib/money-out/transfers): settled, it records `succeeded_at`; its claim
 * token and code die as soon as it leaves `requires_action`; an amount given back to `available` lowers the
 * payment's `amount_refunded` in the same transaction.
 */
export const REFUND_KIND: TransferKind<RefundRow, RefundTrigger, RefundFailureCode> = {
  purpose: "refund",
  table: "refunds",
  rows: refundRow,
  lifecycle: REFUND_LIFECYCLE,
  failureMessages: REFUND_FAILURE_CODES,
  serialize: serializeRefund,
  settledAtColumn: "succeeded_at",
  alwaysSet: `claim_token_hash = case when $2 = 'requires_action' then claim_token_hash end,
    claim_token_sealed = case when $2 = 'requires_action' then claim_token_sealed end,
    claim_code_hash = case when $2 = 'requires_action' then claim_code_hash end`,
  onGiveBack: (tx, refund) =>
    execute(
      tx,
      "update payments set amount_refunded_units = amount_refunded_units - $2, updated_at = now() where id = $1",
      [refund.paymentId, refund.amountUnits.toString()],
    ),
};

/** Its rows as its own code reads, locks and moves them. */
export const { get: getRefund, lock: lockRefund, move: transitionRefund } = causeRows(REFUND_KIND);

/** A refund's part in its transfer, as every kind's (lib/money-out/transfers/cause-hooks.ts). */
export const refundOutboundHooks = causeHooks(REFUND_KIND);
