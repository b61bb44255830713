import { PAYMENT_STATUSES, payments } from "@/db/schema/payments";
import { rowMapper } from "@/lib/platform/db/row-mapper";

export type PaymentStatus = (typeof PAYMENT_STATUSES)[number];
/** Every status a payment can have (the payments table's own list). */
export const PAYMENT_STATUS_VALUES: readonly PaymentStatus[] = PAYMENT_STATUSES;

/** A payments row, typed by the schema (status, chain, mode and metadata narrowed there). */
export type PaymentRow = typeof payments.$inferSelect;

/** Select list and mapper derived from the table: every column, so none can be forgotten. */
export const paymentRow = rowMapper(payments);
export const PAYMENT_COLUMNS = paymentRow.columns;
export const toPaymentRow = paymentRow.map;

/** The columns the payment object is made of (serializePayment): an export reads only these. */
const PAYMENT_OBJECT_KEYS = [
  "id",
  "status",
  "chain",
  "amountUnits",
  "amountReceivedUnits",
  "amountRefundedUnits",
  "depositAddress",
  "description",
  "metadata",
  "customerId",
  "txHash",
  "payerAddress",
  "confirmations",
  "expiresAt",
  "createdAt",
  "confirmedAt",
] as const;
export type PaymentObjectRow = Pick<PaymentRow, (typeof PAYMENT_OBJECT_KEYS)[number]>;
export const paymentObjectRow = paymentRow.pick(PAYMENT_OBJECT_KEYS);
