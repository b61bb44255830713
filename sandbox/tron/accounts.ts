import fs from "node:fs";
import { type AccountResources, EMPTY_RESOURCES, type NetworkWeights } from "./resources";
import type { StakeResource } from "./resources-stake";

/** A pending unfreeze (unfrozenV2): TRX that returns to the balance once withdrawn after its expire time (ms). */
export interface Unfreezing {
  type: StakeResource;
  amount: bigint;
  expireTime: bigint;
}

/** Stake one account delegates to another (DelegatedResourceCapsule, Stake 2.0), with each lock's end in ms. */
export interface Delegation {
  bandwidth: bigint;
  energy: bigint;
  bandwidthExpireTime: bigint;
  energyExpireTime: bigint;
}

export const NO_DELEGATION: Readonly<Delegation> = Object.freeze({
  bandwidth: 0n,
  energy: 0n,
  bandwidthExpireTime: 0n,
  energyExpireTime: 0n,
});

/** bigints as decimal strings, everything else as is: what accounts.json holds. */
type Stored<T> = { [K in keyof T]: T[K] extends bigint ? string : T[K] };
const store = <T extends object>(o: T) =>
  Object.fromEntries(Object.entries(o).map(([k, v]) => [k, typeof v === "bigint" ? String(v) : v])) as Stored<T>;
const load = <T extends object>(s: Record<string, unknown>, shape: T): T =>
  Object.fromEntries(
    Object.entries(shape).map(([k, v]) => [k, typeof v === "bigint" ? BigInt(String(s[k] ?? "0")) : (s[k] ?? v)]),
  ) as T;

interface StoredFile {
  /** Chains started before accounts were tracked: any address anvil knows (balance or nonce) exists. */
  legacy?: boolean;
  accounts: Record<string, Stored<AccountResources>>;
  unfreezing?: Record<string, Stored<Unfreezing>[]>;
  delegations?: Record<string, Stored<Delegation>>;
  weights?: Stored<NetworkWeights>;
}

/** One state change of the table, written at once. */
export interface AccountChanges {
  resources?: [address: string, resources: AccountResources][];
  unfreezing?: [address: string, pending: Unfreezing[]][];
  delegations?: [from: string, to: string, locked: boolean, delegation: Delegation][];
  weights?: NetworkWeights;
}

/**
 * The sandbox's account table (java-tron's AccountStore and DelegatedResourceStore, resources only): which addresses
 * exist (a TRC-20 credit does not create an account, a first TRX transfer does), each one's bandwidth, energy and
 * Stake 2.0 state, and the network's total stake weights. Kept in accounts.json next to the anvil state; every
 * change is written before the broadcast that caused it answers.
 */
export class TronAccounts {
  private accounts = new Map<string, AccountResources>();
  private unfreezing = new Map<string, Unfreezing[]>();
  private delegations = new Map<string, Delegation>();
  weights: NetworkWeights;
  readonly legacy: boolean;

  constructor(
    private file: string,
    private initial: { genesis: string[]; legacy: boolean; weights: NetworkWeights },
  ) {
    const stored = readFile(file);
    this.weights = { ...initial.weights };
    if (!stored) {
      this.legacy = initial.legacy;
      this.reset();
      return;
    }
    this.legacy = stored.legacy === true;
    for (const [address, r] of Object.entries(stored.accounts)) this.accounts.set(address, load(r, EMPTY_RESOURCES));
    for (const [address, list] of Object.entries(stored.unfreezing ?? {}))
      this.unfreezing.set(
        address,
        list.map((u) => load(u, { type: "ENERGY" as StakeResource, amount: 0n, expireTime: 0n })),
      );
    for (const [key, d] of Object.entries(stored.delegations ?? {})) this.delegations.set(key, load(d, NO_DELEGATION));
    if (stored.weights) this.weights = load(stored.weights, this.weights);
  }

  /** Tracked as existing (the caller adds anvil's view for a legacy chain). Addresses are 41-hex. */
  has(address: string): boolean {
    return this.accounts.has(address);
  }

  resources(address: string): AccountResources {
    return this.accounts.get(address) ?? { ...EMPTY_RESOURCES };
  }

  pendingUnfreezes(address: string): Unfreezing[] {
    return this.unfreezing.get(address) ?? [];
  }

  /** java-tron keeps locked and unlocked delegations between two accounts as separate records. */
  delegation(from: string, to: string, locked: boolean): Delegation {
    return this.delegations.get(delegationKey(from, to, locked)) ?? { ...NO_DELEGATION };
  }

  /** Every delegation record from or to an address: [from, to, locked, record]. */
  delegationsOf(address: string): [string, string, boolean, Delegation][] {
    return [...this.delegations].flatMap(([key, d]) => {
      const [from, rest] = key.split(">") as [string, string];
      const [to, lock] = rest.split("#") as [string, string | undefined];
      return from === address || to === address
        ? [[from, to, lock === "lock", d] as [string, string, boolean, Delegation]]
        : [];
    });
  }

  /** Records a transaction's changes (creating the accounts not yet known) in one write. */
  update(changes: AccountChanges): void {
    for (const [address, resources] of changes.resources ?? []) this.accounts.set(address, resources);
    for (const [address, pending] of changes.unfreezing ?? []) this.unfreezing.set(address, pending);
    for (const [from, to, locked, d] of changes.delegations ?? []) {
      if (d.bandwidth === 0n && d.energy === 0n) this.delegations.delete(delegationKey(from, to, locked));
      else this.delegations.set(delegationKey(from, to, locked), d);
    }
    if (changes.weights) this.weights = changes.weights;
    this.save();
  }

  /** A fresh chain, or one whose anvil state was lost: only the genesis accounts exist. */
  reset(): void {
    this.accounts.clear();
    this.unfreezing.clear();
    this.delegations.clear();
    this.weights = { ...this.initial.weights };
    for (const address of this.initial.genesis) this.accounts.set(address, { ...EMPTY_RESOURCES });
    this.save();
  }

  private save(): void {
    const body: StoredFile = {
      ...(this.legacy ? { legacy: true } : {}),
      accounts: Object.fromEntries([...this.accounts].map(([a, r]) => [a, store(r)])),
      unfreezing: Object.fromEntries([...this.unfreezing].map(([a, list]) => [a, list.map(store)])),
      delegations: Object.fromEntries([...this.delegations].map(([k, d]) => [k, store(d)])),
      weights: store(this.weights),
    };
    // Written whole and renamed into place, so a crash leaves the old table or the new one, never half of it.
    const tmp = `${this.file}.tmp`;
    fs.writeFileSync(tmp, JSON.stringify(body));
    fs.renameSync(tmp, this.file);
  }
}

const delegationKey = (from: string, to: string, locked: boolean) => `${from}>${to}${locked ? "#lock" : ""}`;

function readFile(file: string): StoredFile | null {
  try {
    return JSON.parse(fs.readFileSync(file, "utf8")) as StoredFile;
  } catch {
    return null;
  }
}
