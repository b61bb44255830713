import { defineLifecycle } from "@/lib/kernel/define-lifecycle";
import type { EventType } from "@/lib/notify/events/event-types";
import type { PaymentStatus } from "./payment-row";

/**
 * Every status change a payment can make, as data (docs/CHAINS.md explains the rules behind each). Each
 * transition records `payment.<to>`. Deposits move their own money whatever the payment's status
 * (lib/money-in/deposits/deposit-lifecycle.ts: reserved when recorded, reserved back to chain_deposits when a
 * reorg orphans them), so only confirmation moves money with a payment's transition: the payment's deposits,
 * reserved → available, posted by PaymentBatch with the transition.
 *
 * `intent_created` is the intent before it is payable. Creating a payment normally makes it payable in the
 * creating transaction (the deposit address is allocated there, or the network is left to the payer's
 * choice). Only a live Solana payment that finds the address pool empty is stored in it, until the pool's
 * refill gives it an address (lib/money-in/payments/allocate-waiting-payments.ts).
 */
export type PaymentTrigger =
  /** The intent is accepted and payable (address allocated, or the network left to the payer). */
  | "created"
  /** Transfers on the payment's chain reach its amount before it expires. */
  | "funds_detected"
  /** The completing transfer has `threshold` confirmations. */
  | "threshold_reached"
  /** The completing transfer has the chain's required confirmations. */
  | "confirmations_complete"
  /** `expires_at` passed (on chain time) with the amount not reached. */
  | "expiry"
  /** A reorganization removed the completing transfer; the payment can still be paid. */
  | "deposit_orphaned"
  /** A reorganization removed the completing transfer after the time to pay ran out. */
  | "deposit_orphaned_after_expiry";

export const PAYMENT_LIFECYCLE = defineLifecycle<PaymentStatus, PaymentTrigger, EventType>({
  resource: "payment",
  statuses: ["intent_created", "awaiting_payment", "pending", "confirming", "confirmed", "expired", "failed"],
  // Confirmed has no transition out either: a reorganization deeper than the required depth does not reopen it.
  terminal: ["expired", "failed"],
  transitions: [
    {
      from: "intent_created",
      trigger: "created",
      to: "awaiting_payment",
      event: "payment.awaiting_payment",
      ledger: null,
    },
    // A payment still waiting for its address (an empty live Solana pool) expires like any other.
    { from: "intent_created", trigger: "expiry", to: "expired", event: "payment.expired", ledger: null },
    { from: "awaiting_payment", trigger: "funds_detected", to: "pending", event: "payment.pending", ledger: null },
    { from: "pending", trigger: "threshold_reached", to: "confirming", event: "payment.confirming", ledger: null },
    {
      from: "confirming",
      trigger: "confirmations_complete",
      to: "confirmed",
      event: "payment.confirmed",
      ledger: { from: "reserved", to: "available", of: "the payment's deposits on its chain" },
    },
    { from: "awaiting_payment", trigger: "expiry", to: "expired", event: "payment.expired", ledger: null },
    {
      from: "pending",
      trigger: "deposit_orphaned",
      to: "awaiting_payment",
      event: "payment.awaiting_payment",
      ledger: null,
    },
    {
      from: "confirming",
      trigger: "deposit_orphaned",
      to: "awaiting_payment",
      event: "payment.awaiting_payment",
      ledger: null,
    },
    {
      from: "pending",
      trigger: "deposit_orphaned_after_expiry",
      to: "failed",
      event: "payment.failed",
      ledger: null,
    },
    {
      from: "confirming",
      trigger: "deposit_orphaned_after_expiry",
      to: "failed",
      event: "payment.failed",
      ledger: null,
    },
  ],
});
