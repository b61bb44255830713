import type { PaymentRow } from "./payment-row";
import type { PaymentTrigger } from "./payment-lifecycle";

/**
 * The pure decisions of a payment's lifecycle: no database, no chain. The watchers' writers
 * (apply-deposits.ts, advance-payments.ts, expire-payment.ts) apply what these decide through PAYMENT_LIFECYCLE.
 */

type Payable = Pick<PaymentRow, "status" | "expiresAt" | "amountUnits">;

/** Confirmations of a transfer mined in `txBlock` when the chain's head is `head` (the block itself counts). */
export function confirmationsAt(txBlock: number, head: number): number {
  return Math.max(0, head - txBlock + 1);
}

/**
 * Has the payment expired by `chainTime` (the time of the block a transfer is in, or the time the chain
 * has been read to)? Only a payment still awaiting payment expires; a transfer in a block at or after
 * `expires_at` is late.
 */
export function expiredBy(payment: Pick<PaymentRow, "status" | "expiresAt">, chainTimeMs: number): boolean {
  return payment.status === "awaiting_payment" && payment.expiresAt.getTime() <= chainTimeMs;
}

/** Does a payment that has received `receivedUnits` in all (on its chain) now complete? */
export function completesPayment(payment: Payable, receivedUnits: bigint): boolean {
  return payment.status === "awaiting_payment" && receivedUnits >= payment.amountUnits;
}

/** The deposit (of those given, in chain order) at which the running total reaches `amountUnits`, if any. */
export function completingDeposit<D extends { amountUnits: bigint }>(deposits: D[], amountUnits: bigint): D | null {
  let total = 0n;
  for (const deposit of deposits) {
    total += deposit.amountUnits;
    if (total >= amountUnits) return deposit;
  }
  return null;
}

/**
 * The transitions an in-flight payment makes, in order, now that its completing transfer has
 * `confirmations`: none, confirming, or (one scan may cross both thresholds) confirming then confirmed.
 */
export function settlementTriggers(
  status: PaymentRow["status"],
  confirmations: number,
  depth: { threshold: number; required: number },
): PaymentTrigger[] {
  const triggers: PaymentTrigger[] = [];
  let current = status;
  if (current === "pending" && (confirmations >= depth.threshold || confirmations >= depth.required)) {
    triggers.push("threshold_reached");
    current = "confirming";
  }
  if (current === "confirming" && confirmations >= depth.required) triggers.push("confirmations_complete");
  return triggers;
}

/**
 * What a reorganization that removed deposits of an in-flight payment does to it: nothing when the
 * remaining deposits still reach the amount; back to awaiting payment while it can still be paid; failed
 * once the time to pay has run out.
 */
export function afterOrphanedDeposit(
  payment: Pick<PaymentRow, "status" | "expiresAt">,
  stillComplete: boolean,
  nowMs: number,
): PaymentTrigger | null {
  if (payment.status !== "pending" && payment.status !== "confirming") return null;
  if (stillComplete) return null;
  return payment.expiresAt.getTime() > nowMs ? "deposit_orphaned" : "deposit_orphaned_after_expiry";
}
