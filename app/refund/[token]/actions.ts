"use server";
import { redirect } from "next/navigation";
import { DomainError } from "@/lib/kernel/domain-error";
import { checkClaimAddress, claimRefund, loadRefundClaim } from "@/lib/money-out/refunds/claim-refund";
import { getDb } from "@/lib/platform/db/client";
import type { ClaimFormState } from "@/components/refund/claim-form-state";

const addressOf = (form: FormData) => String(form.get("address") ?? "").trim();

/** Step 1: the address the payer typed, checked as a payout's destination is; then the confirmation step. */
export async function reviewClaimAddress(
  token: string,
  _prev: ClaimFormState,
  form: FormData,
): Promise<ClaimFormState> {
  const address = addressOf(form);
  const claim = await loadRefundClaim(getDb(), token);
  // A link used, canceled or expired meanwhile: the page itself says so (404).
  if (!claim) redirect(`/refund/${encodeURIComponent(token)}`);
  if (!address) return { step: "enter", address, error: "Enter the address of your wallet." };
  try {
    await checkClaimAddress(getDb(), claim, address);
  } catch (err) {
    if (!(err instanceof DomainError)) throw err;
    return { step: "enter", address, error: err.message };
  }
  return { step: "confirm", address };
}

/** Step 2: the payer confirmed; the refund is sent to that address, once. */
export async function confirmClaim(token: string, _prev: ClaimFormState, form: FormData): Promise<ClaimFormState> {
  const address = addressOf(form);
  try {
    await claimRefund(getDb(), token, address);
  } catch (err) {
    if (!(err instanceof DomainError)) throw err;
    if (err.type === "not_found") redirect(`/refund/${encodeURIComponent(token)}`);
    return { step: "enter", address, error: err.message };
  }
  redirect("/refund/claimed");
}
