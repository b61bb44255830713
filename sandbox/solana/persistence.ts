import fs from "node:fs";
import path from "node:path";
import type { AccountState, AccountStore } from "./account-store";
import type { Ledger, LedgerSnapshot, TxRecord } from "./ledger-state";
import { fromBase64, toBase64 } from "./wire";

/**
 * On-disk state under `<dataDir>/sandbox/solana/`:
 * - `registry.json` (0600): port, mint, genesis hash and the sandbox-only mint-authority and faucet secrets;
 * - `transactions.jsonl`: the transaction index, appended;
 * - `state.json`: slot, recent slot hashes, blocks, every account transactions wrote, and how many
 *   lines of `transactions.jsonl` it covers (written atomically; lines beyond that count are dropped
 *   on load, so accounts and index always agree after a kill).
 */

export interface SolanaRegistry {
  port: number;
  mint: string;
  genesisHash: string;
  mintAuthoritySecret: number[];
  faucetSecret: number[];
}

type SavedAccount = [lamports: string, owner: string, data: string, executable: boolean];

interface SavedState {
  txCount: number;
  ledger: LedgerSnapshot;
  accounts: Record<string, SavedAccount>;
}

export const solanaDir = (dataDir: string) => path.join(dataDir, "sandbox", "solana");
const registryFile = (dir: string) => path.join(dir, "registry.json");

export function readRegistry(dir: string): SolanaRegistry | null {
  if (!fs.existsSync(registryFile(dir))) return null;
  return JSON.parse(fs.readFileSync(registryFile(dir), "utf8")) as SolanaRegistry;
}

export function writeRegistry(dir: string, registry: SolanaRegistry): void {
  fs.mkdirSync(dir, { recursive: true });
  writeAtomic(registryFile(dir), JSON.stringify(registry, null, 2), 0o600);
}

/** The sandbox mint authority's 64-byte secret (seed + public key), for the service's faucet. */
export function readSolanaSandboxSecret(dataDir: string): Uint8Array {
  const registry = readRegistry(solanaDir(dataDir));
  if (!registry) throw new Error(`no Solana sandbox registry under ${solanaDir(dataDir)}`);
  return Uint8Array.from(registry.mintAuthoritySecret);
}

function writeAtomic(file: string, text: string, mode = 0o644): void {
  const tmp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, text, { mode });
  fs.renameSync(tmp, file);
  fs.chmodSync(file, mode);
}

export interface LoadedState {
  ledger: LedgerSnapshot;
  accounts: Array<[string, AccountState]>;
  records: TxRecord[];
}

export function loadState(dir: string): LoadedState | null {
  const stateFile = path.join(dir, "state.json");
  if (!fs.existsSync(stateFile)) return null;
  const state = JSON.parse(fs.readFileSync(stateFile, "utf8")) as SavedState;
  const txFile = path.join(dir, "transactions.jsonl");
  const lines = fs.existsSync(txFile) ? fs.readFileSync(txFile, "utf8").split("\n").slice(0, state.txCount) : [];
  // Drop lines the snapshot does not cover (written just before a kill), so appends stay aligned.
  fs.writeFileSync(txFile, lines.map((l) => `${l}\n`).join(""));
  const accounts = Object.entries(state.accounts).map(
    ([address, [lamports, owner, data, executable]]): [string, AccountState] => [
      address,
      { lamports: BigInt(lamports), owner, data: fromBase64(data), executable },
    ],
  );
  return { ledger: state.ledger, accounts, records: lines.map((l) => JSON.parse(l) as TxRecord) };
}

/** Writes snapshots; only accounts written since the last one are re-read from LiteSVM. */
export class SnapshotWriter {
  private savedTxCount: number;
  private savedSlot: number;
  private lastSave = Date.now();
  private readonly accounts = new Map<string, SavedAccount>();

  constructor(
    private readonly dir: string,
    private readonly store: AccountStore,
    private readonly ledger: Ledger,
    /** How many of the ledger's transactions are already in transactions.jsonl (those loaded from it). */
    savedTxCount: number,
  ) {
    this.savedTxCount = savedTxCount;
    this.savedSlot = ledger.slot;
    for (const address of store.tracked) store.dirty.add(address);
  }

  /** Saves when accounts or transactions changed, or every 10 s so the slot keeps up. */
  saveIfDirty(): void {
    const changed = this.store.dirty.size > 0 || this.ledger.order.length > this.savedTxCount;
    if (changed || (this.ledger.slot !== this.savedSlot && Date.now() - this.lastSave > 10_000)) this.save();
  }

  /** Synchronous, so no transaction can land between the index append and the account snapshot. */
  save(): void {
    const fresh = this.ledger.order.slice(this.savedTxCount);
    if (fresh.length > 0)
      fs.appendFileSync(path.join(this.dir, "transactions.jsonl"), fresh.map((r) => `${JSON.stringify(r)}\n`).join(""));
    for (const address of this.store.dirty) {
      const account = this.store.get(address);
      if (account)
        this.accounts.set(address, [
          account.lamports.toString(),
          account.owner,
          toBase64(account.data),
          account.executable,
        ]);
      else this.accounts.delete(address);
    }
    this.store.dirty.clear();
    const state: SavedState = {
      txCount: this.ledger.order.length,
      ledger: this.ledger.snapshot(),
      accounts: Object.fromEntries(this.accounts),
    };
    writeAtomic(path.join(this.dir, "state.json"), JSON.stringify(state));
    this.savedTxCount = this.ledger.order.length;
    this.savedSlot = this.ledger.slot;
    this.lastSave = Date.now();
  }
}
