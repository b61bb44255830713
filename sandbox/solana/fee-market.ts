import type { DecodedTx } from "./tx-decode";

/**
 * The sandbox's fee market, shaped as Agave's prioritization-fee cache reports it: per block, the lowest
 * compute-unit price (micro-lamports) its transactions paid, and per write-locked account the lowest price of
 * the transactions that locked it. Under congestion (a floor set by the sandbox control) the other users'
 * traffic fills every block at the floor; a transaction priced below it is accepted and held, as a leader
 * skips it for better-paying ones: it lands in a later slot if the floor falls to its price while its
 * blockhash is valid, and is dropped when the blockhash expires.
 */

/** Agave's cache keeps the last 150 blocks; getRecentPrioritizationFees reports those. */
export const RECENT_FEE_SLOTS = 150;
/** getRecentPrioritizationFees takes at most 128 accounts. */
export const MAX_FEE_ACCOUNTS = 128;
/** More held transactions than this are dropped on arrival (a node's forwarding queue is bounded too). */
const MAX_HELD = 10_000;

interface SlotFees {
  block: bigint | null;
  accounts: Map<string, bigint>;
}

const lower = (a: bigint | null | undefined, b: bigint) => (a === null || a === undefined || b < a ? b : a);

export class FeeMarket {
  /** The compute-unit price the others' traffic pays; 0: no congestion. */
  floor = 0n;
  private readonly slots = new Map<number, SlotFees>();
  private readonly held = new Map<string, { tx: DecodedTx; price: bigint }>();
  /** Fee payers never priced out: the sandbox's own faucet and mint authority, so funding works under congestion. */
  private readonly exempt = new Set<string>();

  exemptFeePayer(address: string): void {
    this.exempt.add(address);
  }

  /** A new slot opens: under congestion the others' transactions already fill it at the floor. */
  openSlot(slot: number): void {
    if (this.floor > 0n) this.slots.set(slot, { block: this.floor, accounts: new Map() });
    this.slots.delete(slot - RECENT_FEE_SLOTS);
  }

  /** A landed transaction's price, for its block and every account it write-locked. */
  record(slot: number, price: bigint, writable: string[]): void {
    let fees = this.slots.get(slot);
    if (!fees) this.slots.set(slot, (fees = { block: null, accounts: new Map() }));
    fees.block = lower(fees.block, price);
    for (const account of writable) fees.accounts.set(account, lower(fees.accounts.get(account), price));
  }

  /**
   * Per slot of the last 150 up to `tip`, oldest first: the block's lowest price, raised to the lowest price
   * paid by transactions that write-locked any of `accounts` (as Agave computes it); 0 for a quiet block.
   */
  recent(accounts: string[], tip: number): Array<{ slot: number; prioritizationFee: bigint }> {
    const out: Array<{ slot: number; prioritizationFee: bigint }> = [];
    for (let slot = Math.max(0, tip - RECENT_FEE_SLOTS + 1); slot <= tip; slot++) {
      const fees = this.slots.get(slot);
      let fee = fees?.block ?? 0n;
      for (const account of accounts) {
        const paid = fees?.accounts.get(account);
        if (paid !== undefined && paid > fee) fee = paid;
      }
      out.push({ slot, prioritizationFee: fee });
    }
    return out;
  }

  /** Whether a leader would skip it now: congested, priced under the floor, and not the sandbox's own. */
  pricedOut(tx: DecodedTx, price: bigint): boolean {
    return price < this.floor && !this.exempt.has(tx.staticKeys[0] ?? "");
  }

  hold(tx: DecodedTx, price: bigint): void {
    if (this.held.size < MAX_HELD) this.held.set(tx.signature, { tx, price });
  }

  /** The held transactions a leader now takes (priced at the floor or above); `usable` ones only, the rest dropped. */
  release(usable: (tx: DecodedTx) => boolean): DecodedTx[] {
    const out: DecodedTx[] = [];
    for (const [signature, { tx, price }] of this.held) {
      if (!usable(tx)) this.held.delete(signature);
      else if (price >= this.floor) {
        this.held.delete(signature);
        out.push(tx);
      }
    }
    return out;
  }
}
