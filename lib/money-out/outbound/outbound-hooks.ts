import type { ChainConfig } from "@/lib/chains/chain-config";
import type { Db } from "@/lib/platform/db/client";
import type { OutboundTrigger } from "./outbound-lifecycle";
import type { OutboundRow } from "./outbound-row";
import type { OutboundPurpose } from "./outbound-types";

/**
 * What the engine asks of the domain a transfer moves money for. The engine signs, sends and tracks transfers
 * and knows nothing of why; the domain (payouts, refunds) registers its hooks when its process
 * starts (worker/outbound-hooks.ts). Sweeps and gas top-ups need none.
 */
export interface OutboundHooks<Screening = unknown> {
  /**
   * A network read before the first signing transaction (the destinations' sanctions and issuer freeze): null
   * waits for the next round. The engine only hands the answer to `refuseSigning`.
   */
  screen?(config: ChainConfig, intent: OutboundRow): Promise<Screening | null>;
  /**
   * In the transaction that would sign the first candidate, with `screen`'s answer: true refuses the signing
   * (the hook has given the intent up in that transaction).
   */
  refuseSigning?(tx: Db, intent: OutboundRow, screened: Screening): Promise<boolean>;
  /** In the transaction of every transition by a trigger (the lifecycle table's). */
  onTransition?(tx: Db, intent: OutboundRow, trigger: OutboundTrigger): Promise<void>;
  /** In the statement's transaction when only the confirmations changed. */
  onConfirmations?(db: Db, intent: OutboundRow): Promise<void>;
}

// Transfers that must not move without their domain's hooks: one of these with none registered stops the pass
// (fail closed) rather than sign a payout unchecked or confirm it with no payout to hear of it.
const NEEDS_HOOKS: ReadonlySet<OutboundPurpose> = new Set(["payout", "payout_batch", "refund"]);
const registered = new Map<OutboundPurpose, OutboundHooks>();

export function registerOutboundHooks(purpose: OutboundPurpose, hooks: OutboundHooks): void {
  registered.set(purpose, hooks);
}

/** The hooks of a purpose; throws for a purpose that needs hooks when none were registered. */
export function hooksOf(purpose: OutboundPurpose): OutboundHooks {
  const hooks = registered.get(purpose);
  if (hooks) return hooks;
  if (NEEDS_HOOKS.has(purpose)) throw new Error(`no outbound hooks registered for ${purpose} transfers`);
  return {};
}
