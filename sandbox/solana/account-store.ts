import { lamports, type Address } from "@solana/kit";
import type { LiteSVM } from "litesvm";
import { decodeMint } from "./token-layout";

/**
 * Account reads and writes over LiteSVM, plus the two things LiteSVM does not keep:
 * - which accounts transactions wrote (the persistence snapshot holds exactly those), and
 * - the prior state of accounts written in the last few slots, so `finalized` reads (32 slots
 *   behind) see the state as of that slot rather than the newest one.
 */

export interface AccountState {
  lamports: bigint;
  owner: string;
  data: Uint8Array;
  executable: boolean;
}

interface Change {
  slot: number;
  before: AccountState | null;
}

export class AccountStore {
  /** Every account a transaction, airdrop or mint creation wrote; what a snapshot must save. */
  readonly tracked = new Set<string>();
  /** Tracked accounts written since the last snapshot. */
  readonly dirty = new Set<string>();
  private readonly history = new Map<string, Change[]>();
  private readonly decimals = new Map<string, number>();

  constructor(private readonly svm: LiteSVM) {}

  /** The newest state; an account with no lamports does not exist, as on a real node. */
  get(address: string): AccountState | null {
    const account = this.svm.getAccount(address as Address);
    if (!account.exists || BigInt(account.lamports) === 0n) return null;
    return {
      lamports: BigInt(account.lamports),
      owner: account.programAddress,
      data: new Uint8Array(account.data),
      executable: account.executable,
    };
  }

  /** The state as of the end of `slot` (reverting the changes made after it). */
  at(address: string, slot: number): AccountState | null {
    let state = this.get(address);
    const changes = this.history.get(address);
    if (!changes) return state;
    for (let i = changes.length - 1; i >= 0 && changes[i]!.slot > slot; i--) state = changes[i]!.before;
    return state;
  }

  /** Writes an account outright (restore, or the faucet's initial balance). */
  set(address: string, state: AccountState): void {
    this.svm.setAccount({
      address: address as Address,
      lamports: lamports(state.lamports),
      programAddress: state.owner as Address,
      data: state.data,
      executable: state.executable,
      space: BigInt(state.data.length),
    });
    this.tracked.add(address);
    this.dirty.add(address);
  }

  /** Records that a transaction in `slot` wrote `address`, which held `before` until then. */
  noteWrite(address: string, slot: number, before: AccountState | null): void {
    let changes = this.history.get(address);
    if (!changes) this.history.set(address, (changes = []));
    changes.push({ slot, before });
    this.tracked.add(address);
    this.dirty.add(address);
  }

  /** Forgets history no reader can ask for any more (at or below the finalized slot). */
  prune(finalizedSlot: number): void {
    for (const [address, changes] of this.history) {
      while (changes.length > 0 && changes[0]!.slot <= finalizedSlot) changes.shift();
      if (changes.length === 0) this.history.delete(address);
    }
  }

  /** Accounts owned by `program` as of `slot` (null = newest), with their addresses. */
  programAccounts(program: string, slot: number | null): Array<[string, AccountState]> {
    const candidates = new Set(this.svm.getProgramAccounts(program as Address).map((a) => a.address as string));
    if (slot !== null) for (const address of this.history.keys()) candidates.add(address);
    const out: Array<[string, AccountState]> = [];
    for (const address of candidates) {
      const state = slot === null ? this.get(address) : this.at(address, slot);
      if (state && state.owner === program) out.push([address, state]);
    }
    return out;
  }

  minimumBalance(dataLength: bigint): bigint {
    return this.svm.minimumBalanceForRentExemption(dataLength);
  }

  /** A mint's decimals (they never change once initialized, so they are cached). */
  decimalsOf = (mint: string): number | undefined => {
    const cached = this.decimals.get(mint);
    if (cached !== undefined) return cached;
    const account = this.get(mint);
    const decoded = account && decodeMint(account.owner, account.data);
    if (!decoded) return undefined;
    this.decimals.set(mint, decoded.decimals);
    return decoded.decimals;
  };
}
