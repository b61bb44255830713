/**
 * A resource's lifecycle as data: every allowed transition (from, trigger → to), the event it emits and the
 * ledger movement it implies. Writers ask the lifecycle for a transition by its trigger; one that is not in
 * the table throws, so an illegal status change cannot be written by accident. Payments use it today;
 * payouts use the same shape.
 */
import type { ExternalAccount, MerchantAccount } from "./ledger-accounts";

/** A movement between two ledger accounts that a transition implies (`of`: which amount moves). */
export interface LedgerMovement {
  from: MerchantAccount | ExternalAccount;
  to: MerchantAccount | ExternalAccount;
  of: string;
}

export interface Transition<Status extends string, Trigger extends string, Event extends string | null> {
  from: Status;
  trigger: Trigger;
  to: Status;
  /** The event recorded, with the resource as it is right after the change (null: an internal record, no event). */
  event: Event;
  ledger: LedgerMovement | null;
}

/** A transition that records no event and moves no money (internal records: transactions, deliveries). */
export const quietStep = <Status extends string, Trigger extends string>(
  from: Status,
  trigger: Trigger,
  to: Status,
): Transition<Status, Trigger, null> => ({ from, trigger, to, event: null, ledger: null });

export class IllegalTransitionError extends Error {
  constructor(
    readonly resource: string,
    readonly from: string,
    readonly trigger: string,
  ) {
    super(`illegal ${resource} transition: no "${trigger}" from "${from}"`);
    this.name = "IllegalTransitionError";
  }
}

export interface Lifecycle<Status extends string, Trigger extends string, Event extends string | null> {
  readonly resource: string;
  readonly statuses: readonly Status[];
  readonly terminal: readonly Status[];
  readonly transitions: readonly Transition<Status, Trigger, Event>[];
  /** The transition `trigger` causes from `from`; throws IllegalTransitionError when there is none. */
  transition(from: Status, trigger: Trigger): Transition<Status, Trigger, Event>;
  allows(from: Status, trigger: Trigger): boolean;
  /**
   * For a bulk update (`set status = to where status = any(from)`): every status `trigger` moves from, and
   * the one status it moves to; throws when the trigger has no transition or leads to more than one status.
   */
  bulk(trigger: Trigger): { from: Status[]; to: Status };
  isTerminal(status: Status): boolean;
}

export function defineLifecycle<Status extends string, Trigger extends string, Event extends string | null>(spec: {
  resource: string;
  statuses: readonly Status[];
  terminal: readonly Status[];
  transitions: readonly Transition<Status, Trigger, Event>[];
}): Lifecycle<Status, Trigger, Event> {
  const byKey = new Map<string, Transition<Status, Trigger, Event>>();
  for (const t of spec.transitions) {
    const key = `${t.from}\u0000${t.trigger}`;
    if (byKey.has(key))
      throw new Error(`${spec.resource} lifecycle: "${t.trigger}" from "${t.from}" is declared twice`);
    if (spec.terminal.includes(t.from))
      throw new Error(`${spec.resource} lifecycle: "${t.from}" is terminal but has a transition`);
    byKey.set(key, t);
  }
  return {
    ...spec,
    transition(from, trigger) {
      const t = byKey.get(`${from}\u0000${trigger}`);
      if (!t) throw new IllegalTransitionError(spec.resource, from, trigger);
      return t;
    },
    allows: (from, trigger) => byKey.has(`${from}\u0000${trigger}`),
    bulk(trigger) {
      const steps = spec.transitions.filter((t) => t.trigger === trigger);
      const to = steps[0]?.to;
      if (to === undefined || steps.some((t) => t.to !== to))
        throw new Error(`${spec.resource} lifecycle: "${trigger}" does not lead to one status`);
      return { from: steps.map((t) => t.from), to };
    },
    isTerminal: (status) => spec.terminal.includes(status),
  };
}
