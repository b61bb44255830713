import { defineLifecycle } from "@/lib/kernel/define-lifecycle";

/**
 * A deposit's status: reserved for the merchant, credited to their available balance, removed by a reorg, or
 * dust below the chain's minimum to a deposit address (held in custody, never the merchant's balance).
 */
export type DepositStatus = "pending" | "credited" | "orphaned" | "ignored";

export type DepositTrigger =
  /** Deep enough, and the payment that owns it confirmed (or no payment in progress will). */
  | "credit"
  /** A reorganization removed its block before it was credited. */
  | "orphan"
  /** A reorganization deeper than the required confirmations removed its block after it was credited. */
  | "reverse"
  /** The transaction of an orphaned deposit was mined again on the new chain. */
  | "mine_again"
  /** The same, for dust: it is held again, not reserved. */
  | "mine_again_as_dust";

/**
 * Every status change a deposit can make, as data, with the money each one moves for the merchant. A
 * deposit is born `pending` when its transfer is recorded (chain_deposits → reserved). The deposits module
 * writes these transitions in bulk statements whose `from` and `to` statuses it takes from this table; the
 * payment a deposit belongs to decides its own status from the deposits (lib/money-in/payments).
 */
export const DEPOSIT_LIFECYCLE = defineLifecycle<DepositStatus, DepositTrigger, null>({
  resource: "deposit",
  statuses: ["pending", "credited", "orphaned", "ignored"],
  terminal: [],
  transitions: [
    {
      from: "pending",
      trigger: "credit",
      to: "credited",
      event: null,
      ledger: { from: "reserved", to: "available", of: "the deposit, first repaying its open reorg receivable" },
    },
    {
      from: "pending",
      trigger: "orphan",
      to: "orphaned",
      event: null,
      ledger: { from: "reserved", to: "chain_deposits", of: "the deposit" },
    },
    {
      from: "credited",
      trigger: "reverse",
      to: "orphaned",
      event: null,
      ledger: {
        from: "available",
        to: "chain_deposits",
        of: "the deposit, as far as available covers it; the rest is booked on reorg_receivables",
      },
    },
    {
      from: "orphaned",
      trigger: "mine_again",
      to: "pending",
      event: null,
      ledger: { from: "chain_deposits", to: "reserved", of: "the deposit" },
    },
    { from: "ignored", trigger: "orphan", to: "orphaned", event: null, ledger: null },
    { from: "orphaned", trigger: "mine_again_as_dust", to: "ignored", event: null, ledger: null },
  ],
});

/** The transitions the bulk writers apply, looked up once (a missing one throws at load). */
export const CREDIT = DEPOSIT_LIFECYCLE.transition("pending", "credit");
export const ORPHAN = DEPOSIT_LIFECYCLE.transition("pending", "orphan");
export const REVERSE = DEPOSIT_LIFECYCLE.transition("credited", "reverse");
export const MINE_AGAIN = DEPOSIT_LIFECYCLE.transition("orphaned", "mine_again");
export const ORPHAN_DUST = DEPOSIT_LIFECYCLE.transition("ignored", "orphan");
