import { formatAmount } from "@/lib/kernel/amount";
import type { DepositObject } from "./deposit-address-object";
import type { DepositView } from "./deposit-view";

/** The API's names for the deposit's book status (docs/API.md#deposit-statuses). */
const STATUS: Record<DepositView["status"], DepositObject["status"]> = {
  pending: "pending",
  credited: "confirmed",
  orphaned: "reversed",
  ignored: "ignored_below_minimum",
};

/** A deposit as the API returns it (deposit-address-object.ts). */
export function serializeDeposit(d: DepositView): DepositObject {
  return {
    id: d.id,
    object: "deposit",
    status: STATUS[d.status],
    amount: formatAmount(d.amountUnits),
    currency: "USDT",
    chain: d.chain as DepositObject["chain"],
    deposit_address: d.depositAddressId,
    address: d.address,
    customer: d.customerId,
    from: d.fromAddress,
    tx_hash: d.txHash,
    log_index: d.logIndex,
    block_number: d.blockNumber,
    address_disabled: d.addressDisabled,
    created_at: d.createdAt.toISOString(),
    confirmed_at: d.creditedAt?.toISOString() ?? null,
  };
}
