import type { Chain } from "@/lib/chains/chains";
import type { Lifecycle, Transition } from "@/lib/kernel/define-lifecycle";
import type { Mode } from "@/lib/kernel/mode";
import type { EventType } from "@/lib/notify/events/event-types";
import type { Db } from "@/lib/platform/db/client";

/** The columns every kind of money out has, which the transfer engine reads and writes. */
export interface CauseRow {
  id: string;
  status: string;
  merchantId: string;
  mode: Mode;
  chain: Chain;
  amountUnits: bigint;
  toAddress: string | null;
  outboundId: string | null;
}

/** The triggers every kind has in its lifecycle table: the engine moves a cause by them. */
export type TransferTrigger =
  /** Its transfer's signed bytes are committed: `tx_hash` is set. */
  | "signed"
  /** The transfer reached the chain's confirmation depth. */
  | "settled"
  /** Its destination is refused (sanctioned, deny-listed, frozen by the issuer), at execution or before signing. */
  | "denied"
  /** The transfer provably failed (reverted at depth, or expired after the allowed re-signs). */
  | "transfer_failed"
  /**
   * The batch it was sent in reverted at depth (all or nothing: nothing was paid): it is sent again, alone
   * (payout-batch-hooks.ts; only kinds that batch have this row).
   */
  | "batch_reverted";

/**
 * What a kind of money out (a payout, a refund) tells the transfer engine about itself: its table, lifecycle
 * and object. The engine writes the rest once: the status change with its ledger movement and event
 * (move-cause.ts), the execution (execute-causes.ts) and its part in the transfer (cause-hooks.ts).
 */
export interface TransferKind<
  Row extends CauseRow,
  Trigger extends string = TransferTrigger,
  Code extends string = string,
> {
  purpose: "payout" | "refund";
  table: "payouts" | "refunds";
  /** The select list and the raw-row mapper (lib/platform/db/row-mapper.ts). */
  rows: { columns: string; map(raw: Record<string, unknown>): Row };
  lifecycle: Lifecycle<Row["status"], Trigger | TransferTrigger, EventType | null>;
  /** Each failure code's message, written beside the code. */
  failureMessages: Record<Code, string>;
  /** The object its events carry. */
  serialize(row: Row): { id: string };
  /** The column a settled transfer's time is written to. */
  settledAtColumn: "confirmed_at" | "succeeded_at";
  /** Written with every status change (`$2` is the new status): a refund's claim secrets die with the claim. */
  alwaysSet?: string;
  /** In the same transaction, when the amount goes back to `available`. */
  onGiveBack?(tx: Db, row: Row): Promise<unknown>;
}

type Purpose = TransferKind<CauseRow>["purpose"];

/** A kind's amount in flight goes back to `available` (the cause ended without paying). */
export const giveBack = (purpose: Purpose) =>
  ({ from: `${purpose}s_in_flight`, to: "available", of: `the ${purpose}'s amount` }) as const;

/**
 * The rows every kind's lifecycle shares with its transfer: signed → `processing`; settled at depth → the
 * kind's success (event `<kind>.<success>`), the amount leaving the books to the chain; failed → `failed`
 * (`<kind>.failed`), the amount given back.
 */
export function transferTransitions<Status extends string>(
  purpose: Purpose,
  succeeded: Status,
): Transition<Status | "pending" | "processing" | "failed", TransferTrigger, EventType | null>[] {
  const back = giveBack(purpose);
  return [
    { from: "pending", trigger: "signed", to: "processing", event: null, ledger: null },
    {
      from: "processing",
      trigger: "settled",
      to: succeeded,
      event: `${purpose}.${succeeded}` as EventType,
      ledger: { from: back.from, to: "chain_withdrawals", of: back.of },
    },
    { from: "processing", trigger: "transfer_failed", to: "failed", event: `${purpose}.failed`, ledger: back },
  ];
}
