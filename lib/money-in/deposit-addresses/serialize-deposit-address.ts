import { formatAmount } from "@/lib/kernel/amount";
import type { DepositAddressObject } from "./deposit-address-object";
import type { DepositAddressRow, DepositTotals } from "./deposit-address-row";

/** A deposit address as the API returns it (deposit-address-object.ts). */
export function serializeDepositAddress(row: DepositAddressRow, totals: DepositTotals): DepositAddressObject {
  return {
    id: row.id,
    object: "deposit_address",
    customer: row.customerId,
    chain: row.chain as DepositAddressObject["chain"],
    address: row.address,
    status: row.status,
    amount_received: formatAmount(totals.receivedUnits),
    amount_credited: formatAmount(totals.creditedUnits),
    metadata: row.metadata,
    created_at: row.createdAt.toISOString(),
  };
}
