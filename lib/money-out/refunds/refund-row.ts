import { refunds } from "@/db/schema/refunds";
import { rowMapper } from "@/lib/platform/db/row-mapper";

/** A refunds row, typed by the schema. */
export type RefundRow = typeof refunds.$inferSelect;

export const refundRow = rowMapper(refunds);
export const REFUND_COLUMNS = refundRow.columns;
export const toRefundRow = refundRow.map;
