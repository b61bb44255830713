import { DomainError } from "@/lib/kernel/domain-error";
import type { Mode } from "@/lib/kernel/mode";
import { requireEnabledChain } from "@/lib/chains/require-enabled-chain";
import type { Chain } from "@/lib/chains/chains";
import type { Db } from "@/lib/platform/db/client";
import { query } from "@/lib/platform/db/query";
import { checkRefundDestination, senderOf } from "./refund-destination";
import type { CreateRefundInput } from "./schemas";

/**
 * POST /v1/refunds, first phase: the payment's chain, and the destination (given, or the payment's sender)
 * through the destination guards the database can answer. Returns the address (null for a claim) and the
 * network check still to run outside any transaction.
 */
export async function prepareRefundDestination(
  db: Db,
  owner: { merchantId: string; mode: Mode },
  input: CreateRefundInput,
): Promise<{ toAddress: string | null; check: () => Promise<void> }> {
  const [payment] = await query<{ chain: Chain | null }>(
    db,
    "select chain from payments where id = $1 and merchant_id = $2 and mode = $3",
    [input.payment, owner.merchantId, owner.mode],
  );
  if (!payment)
    throw new DomainError("invalid_request_error", `No such payment: ${input.payment}`, { param: "payment" });
  if (!payment.chain)
    throw new DomainError("invalid_request_error", "The payment has received nothing to refund.", { param: "payment" });
  requireEnabledChain(owner.mode, payment.chain);
  if (input.destination === "claim") return { toAddress: null, check: async () => {} };
  const toAddress = input.destination === "sender" ? await senderOf(db, owner, input.payment) : input.to_address!;
  const param = input.destination === "sender" ? "destination" : "to_address";
  return { toAddress, check: await checkRefundDestination(db, owner, payment.chain, toAddress, param) };
}
