"use server";
import { redirect } from "next/navigation";
import { DomainError } from "@/lib/kernel/domain-error";
import { isChain } from "@/lib/chains/chains";
import { loadPaymentForCheckout } from "@/lib/money-in/checkout/load-checkout";
import { getDb } from "@/lib/platform/db/client";
import { log } from "@/lib/platform/log";
import { getRateLimiter, LIMITS, retryAfterSeconds, WINDOW_MS } from "@/lib/platform/rate-limit/policies";
import { selectPaymentChain } from "@/lib/money-in/payments/select-payment-chain";
import { simulatePayment } from "@/lib/money-in/payments/simulate-payment";
import type { SandboxPayResult } from "@/components/checkout/sandbox-pay-button";

/** The payer's network choice for a chain-agnostic payment; allocates the deposit address once. */
export async function chooseNetwork(paymentId: string, form: FormData): Promise<void> {
  const chain = String(form.get("chain") ?? "");
  let problem: string | null = null;
  try {
    if (!isChain(chain)) throw new DomainError("invalid_request_error", "Choose one of the listed networks.");
    await selectPaymentChain(getDb(), paymentId, chain);
  } catch (err) {
    if (!(err instanceof DomainError)) throw err;
    problem = err.type === "chain_disabled" ? "unavailable" : "invalid";
  }
  redirect(`/checkout/${encodeURIComponent(paymentId)}${problem ? `?error=${problem}` : ""}`);
}

/**
 * Sandbox payments only: a real transfer from a fresh sandbox wallet, as POST /v1/sandbox/payments/:id/simulate
 * does. Anyone holding the page can press it, so each payment gets 3 a minute.
 */
export async function payWithSandboxWallet(paymentId: string): Promise<SandboxPayResult> {
  const payment = await loadPaymentForCheckout(getDb(), paymentId);
  if (payment?.mode !== "sandbox")
    return { ok: false, message: "Only sandbox payments can be paid with the sandbox wallet." };
  const admitted = await getRateLimiter().hit(`payment:${paymentId}:sandbox_pay`, LIMITS.sandbox_pay, WINDOW_MS);
  if (!admitted.allowed)
    return {
      ok: false,
      message:
        `The sandbox wallet paid this payment ${LIMITS.sandbox_pay} times this minute. ` +
        `Try again in ${retryAfterSeconds(admitted.retryAfterMs)} seconds.`,
    };
  try {
    const sent = await simulatePayment(getDb(), payment, paymentId);
    return { ok: true, txHash: sent.tx_hash };
  } catch (err) {
    if (err instanceof DomainError) return { ok: false, message: err.message };
    log.error("sandbox wallet payment failed", {
      payment: paymentId,
      error: err instanceof Error ? err.message : String(err),
    });
    return { ok: false, message: "The sandbox wallet could not send the payment. Try again in a moment." };
  }
}
