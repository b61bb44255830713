import { depositAddresses } from "@/db/schema/deposit-addresses";
import { rowMapper } from "@/lib/platform/db/row-mapper";

/** A deposit_addresses row, typed by the schema. */
export type DepositAddressRow = typeof depositAddresses.$inferSelect;

export const depositAddressRow = rowMapper(depositAddresses);

/** What a deposit address has received and had credited, in USDT base units (deposit-totals.ts). */
export interface DepositTotals {
  receivedUnits: bigint;
  creditedUnits: bigint;
}
