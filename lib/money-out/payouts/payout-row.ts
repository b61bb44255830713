import { payouts } from "@/db/schema/payouts";
import { rowMapper } from "@/lib/platform/db/row-mapper";

/** A payouts row, typed by the schema (status, chain, mode and metadata narrowed there). */
export type PayoutRow = typeof payouts.$inferSelect;

/** Select list and mapper derived from the table: every column, so none can be forgotten. */
export const payoutRow = rowMapper(payouts);
export const PAYOUT_COLUMNS = payoutRow.columns;
export const toPayoutRow = payoutRow.map;
