import { paymentLinks } from "@/db/schema/payment-links";
import { rowMapper } from "@/lib/platform/db/row-mapper";

/** A payment_links row, typed by the schema. */
export type PaymentLinkRow = typeof paymentLinks.$inferSelect;

/** Select list and mapper derived from the table: every column, so none can be forgotten. */
export const paymentLinkRow = rowMapper(paymentLinks);
export const PAYMENT_LINK_COLUMNS = paymentLinkRow.columns;
export const toPaymentLinkRow = paymentLinkRow.map;
