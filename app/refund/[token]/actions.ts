"use server";
import { redirect } from "next/navigation";
import { DomainError } from "@/lib/kernel/domain-error";
import { checkClaimAddress, checkClaimCode, claimRefund, loadRefundClaim } from "@/lib/money-out/refunds/claim-refund";
import { getDb } from "@/lib/platform/db/client";
import type { ClaimFormState } from "@/components/refund/claim-form-state";

const addressOf = (form: FormData) => String(form.get("address") ?? "").trim();
const codeOf = (form: FormData) => String(form.get("code") ?? "").trim();

/**
 * Step 1: the code (when the merchant requires one: each wrong one spends one of the link's tries) and the address
 * the payer typed, checked as a payout's destination is; then the confirmation step.
 */
export async function reviewClaimAddress(
  token: string,
  _prev: ClaimFormState,
  form: FormData,
): Promise<ClaimFormState> {
  const address = addressOf(form);
  const code = codeOf(form);
  const claim = await loadRefundClaim(getDb(), token);
  // A link used, canceled, expired or locked meanwhile: the page itself says so.
  if (!claim || claim.locked) redirect(`/refund/${encodeURIComponent(token)}`);
  if (!address) return { step: "enter", address, code, error: "Enter the address of your wallet." };
  try {
    await checkClaimCode(getDb(), claim, code);
    await checkClaimAddress(getDb(), claim, address);
  } catch (err) {
    if (!(err instanceof DomainError)) throw err;
    if (err.param === "code" && (await loadRefundClaim(getDb(), token))?.locked)
      redirect(`/refund/${encodeURIComponent(token)}`);
    return { step: "enter", address, code: err.param === "code" ? "" : code, error: err.message };
  }
  return { step: "confirm", address, code };
}

/** Step 2: the payer confirmed; the refund is sent to that address, once. */
export async function confirmClaim(token: string, _prev: ClaimFormState, form: FormData): Promise<ClaimFormState> {
  const address = addressOf(form);
  const code = codeOf(form);
  try {
    await claimRefund(getDb(), token, address, code);
  } catch (err) {
    if (!(err instanceof DomainError)) throw err;
    if (err.type === "not_found" || err.param === "code") redirect(`/refund/${encodeURIComponent(token)}`);
    return { step: "enter", address, code, error: err.message };
  }
  redirect("/refund/claimed");
}
