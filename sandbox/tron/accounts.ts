import fs from "node:fs";
import { type AccountResources, EMPTY_RESOURCES } from "./resources";

/** One account as java-tron keeps it for resources: activated or not, and its Stake 2.0 state. */
interface StoredAccount {
  resources: AccountResources;
}

interface StoredFile {
  /** Chains started before accounts were tracked: any address anvil knows (balance or nonce) exists. */
  legacy?: boolean;
  accounts: Record<string, Record<keyof AccountResources, string>>;
}

const toStored = (r: AccountResources) =>
  Object.fromEntries(Object.entries(r).map(([k, v]) => [k, String(v)])) as Record<keyof AccountResources, string>;
const fromStored = (s: Record<string, string>): AccountResources =>
  Object.fromEntries(Object.keys(EMPTY_RESOURCES).map((k) => [k, BigInt(s[k] ?? "0")])) as unknown as AccountResources;

/**
 * The sandbox's account table (java-tron's AccountStore, resources only): which addresses exist (a TRC-20 credit
 * does not create an account, a first TRX transfer does) and each one's bandwidth, energy and stake. Kept in
 * accounts.json next to the anvil state; every change is written before the broadcast that caused it answers.
 */
export class TronAccounts {
  private accounts = new Map<string, StoredAccount>();
  readonly legacy: boolean;

  constructor(
    private file: string,
    opts: { genesis: string[]; legacy: boolean },
  ) {
    const stored = readFile(file);
    if (stored) {
      this.legacy = stored.legacy === true;
      for (const [address, r] of Object.entries(stored.accounts))
        this.accounts.set(address, { resources: fromStored(r) });
      return;
    }
    this.legacy = opts.legacy;
    for (const address of opts.genesis) this.accounts.set(address, { resources: { ...EMPTY_RESOURCES } });
    this.save();
  }

  /** Tracked as existing (the caller adds anvil's view for a legacy chain). Addresses are 41-hex. */
  has(address: string): boolean {
    return this.accounts.has(address);
  }

  resources(address: string): AccountResources {
    return this.accounts.get(address)?.resources ?? { ...EMPTY_RESOURCES };
  }

  /** Records the new state of each account (creating the ones not yet known) in one write. */
  update(changes: [address: string, resources: AccountResources][]): void {
    if (!changes.length) return;
    for (const [address, resources] of changes) this.accounts.set(address, { resources });
    this.save();
  }

  /** After the anvil state is lost: only the genesis accounts exist again. */
  reset(genesis: string[]): void {
    this.accounts.clear();
    for (const address of genesis) this.accounts.set(address, { resources: { ...EMPTY_RESOURCES } });
    this.save();
  }

  private save(): void {
    const body: StoredFile = {
      ...(this.legacy ? { legacy: true } : {}),
      accounts: Object.fromEntries([...this.accounts].map(([a, s]) => [a, toStored(s.resources)])),
    };
    // Written whole and renamed into place, so a crash leaves the old table or the new one, never half of it.
    const tmp = `${this.file}.tmp`;
    fs.writeFileSync(tmp, JSON.stringify(body));
    fs.renameSync(tmp, this.file);
  }
}

function readFile(file: string): StoredFile | null {
  try {
    return JSON.parse(fs.readFileSync(file, "utf8")) as StoredFile;
  } catch {
    return null;
  }
}
