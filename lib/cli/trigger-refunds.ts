import { createPayment, payUntil, type Triggered, type TriggerRun } from "./trigger-payments";
import { freshAddress } from "@/lib/chains/addresses/fresh-address";
import { followTransfer, frozenAddress } from "./trigger-payouts";

interface Refund {
  id: string;
  amount: string;
  status: string;
  claim_url: string | null;
}

const REFUND_AMOUNT = "1.000000";

/** A confirmed 2 USDT payment, then a refund of 1 USDT of it to `destination` (the payer's claim by default). */
async function refundPart(run: TriggerRun, destination: Record<string, string>): Promise<Refund> {
  const payment = await createPayment(run);
  await payUntil(run, payment, "confirmed");
  const refund = await run.api.post<Refund>("/v1/refunds", {
    payment: payment.id,
    amount: REFUND_AMOUNT,
    reason: "requested_by_customer",
    ...destination,
  });
  const where = refund.claim_url ? `claim page ${refund.claim_url}` : `to ${destination.to_address}`;
  run.step(`refund ${refund.id} created: ${refund.amount} USDT, ${where}, ${refund.status}`, {
    step: "refund_created",
    refund: refund.id,
    status: refund.status,
    claim_url: refund.claim_url,
  });
  return refund;
}

/** A refund waiting for the payer's address on its claim page (refund.created and refund.requires_action). */
export async function refundToClaim(run: TriggerRun): Promise<Triggered> {
  return { object: "refund", id: (await refundPart(run, {})).id };
}

/** The same, canceled by the merchant: the amount goes back to the balance. */
export async function refundCanceled(run: TriggerRun): Promise<Triggered> {
  const refund = await refundPart(run, {});
  const canceled = await run.api.post<Refund>(`/v1/refunds/${refund.id}/cancel`);
  run.step(`refund ${refund.id} is ${canceled.status}`, {
    step: "refund_status",
    refund: refund.id,
    status: canceled.status,
  });
  return { object: "refund", id: refund.id };
}

/** A refund sent to `to`, followed until it ends as `target`. */
async function refundSent(run: TriggerRun, to: string, target: "succeeded" | "failed"): Promise<Triggered> {
  const refund = await refundPart(run, { destination: "address", to_address: to });
  await followTransfer(run, { kind: "refund", path: `/v1/refunds/${refund.id}`, ...refund }, target, {
    ends: ["succeeded", "failed", "canceled"],
    sending: "processing",
    every: 4_000, // within the key's default 60 calls a minute, shared with whatever else runs
  });
  return { object: "refund", id: refund.id };
}

export const refundSucceeded = (run: TriggerRun) => refundSent(run, freshAddress(run.chain), "succeeded");
export const refundFailed = async (run: TriggerRun) =>
  refundSent(run, await frozenAddress(run, "refund.failed", "failed"), "failed");
