"use server";
import { redirect } from "next/navigation";
import { DomainError } from "@/lib/kernel/domain-error";
import { LinkPaymentLimitError } from "@/lib/money-in/checkout/link-payments";
import { payPaymentLink } from "@/lib/money-in/checkout/pay-payment-link";
import { getDb } from "@/lib/platform/db/client";

/**
 * The payer picked a network on a link's page: the link's open payment on it, or a new one, opens in
 * checkout. Refusals come back to the link's page as `?error=` codes it explains.
 */
export async function payLink(token: string, form: FormData): Promise<void> {
  let paymentId: string;
  try {
    paymentId = await payPaymentLink(getDb(), token, String(form.get("chain") ?? ""));
  } catch (err) {
    if (err instanceof LinkPaymentLimitError) redirect(`/pay/${encodeURIComponent(token)}?error=full`);
    if (!(err instanceof DomainError)) throw err;
    redirect(`/pay/${encodeURIComponent(token)}?error=${err.type === "chain_disabled" ? "unavailable" : "invalid"}`);
  }
  // A path of our own, built from our own id: never a redirect target taken from the request.
  redirect(`/checkout/${paymentId}`);
}
