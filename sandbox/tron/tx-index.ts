import fs from "node:fs";

/** A transaction as the facade accepted it: canonical Tron JSON (hex addresses) plus its signatures. */
export interface TronTxJson {
  txID: string;
  raw_data: Record<string, unknown> & {
    contract: {
      parameter: { value: Record<string, unknown>; type_url: string };
      type: string;
      Permission_id?: number;
    }[];
  };
  raw_data_hex: string;
  signature?: string[];
}

/** What the transaction paid, as java-tron's TransactionInfo reports it (sun, bandwidth bytes, energy). */
export interface TronReceipt {
  fee: bigint;
  net_usage: bigint;
  net_fee: bigint;
  energy_usage?: bigint;
  energy_fee?: bigint;
  energy_usage_total?: bigint;
  /** Stake 2.0: matured unfrozen TRX this transaction returned to the balance. */
  withdraw_expire_amount?: bigint;
  /** The VM's result, decided before execution when the call could not afford its energy. */
  result?: string;
}

interface Entry {
  txID: string;
  ethHash: string;
  tx: TronTxJson;
  /** Numbers in the file; absent on transactions recorded before fees were charged. */
  receipt?: Record<string, string | number>;
  /** The anvil transaction that burnt the fees ahead of the call: not a Tron transaction of its own. */
  burnHash?: string;
}

/**
 * Tron txID ↔ anvil transaction hash, appended to a JSON-lines file so lookups survive a restart (anvil's
 * --state keeps the blocks and receipts; this keeps the Tron ids and signed JSON that anvil never saw).
 * Block ids need no index: they are derived from anvil's block hashes (see blocks.ts).
 */
export class TxIndex {
  private byTx = new Map<string, Entry>();
  private byEth = new Map<string, string>();
  private burns = new Set<string>();
  /** txIDs being executed right now, so two concurrent broadcasts of one transaction cannot both pass. */
  private reserved = new Set<string>();
  private waiters: (() => void)[] = [];
  /** Bumped whenever a broadcast ends; readers use it to notice a mapping that changed under them. */
  generation = 0;

  constructor(private file: string) {
    if (!fs.existsSync(file)) return;
    for (const line of fs.readFileSync(file, "utf8").split("\n")) {
      if (!line.trim()) continue;
      try {
        this.remember(JSON.parse(line) as Entry);
      } catch {
        /* a torn last line after a crash: skip it */
      }
    }
  }

  private remember(e: Entry): void {
    this.byTx.set(e.txID, e);
    this.byEth.set(e.ethHash.toLowerCase(), e.txID);
    if (e.burnHash) this.burns.add(e.burnHash.toLowerCase());
  }

  /** An anvil transaction that only burnt fees for a Tron one: blocks and logs leave it out. */
  isBurn(ethHash: string): boolean {
    return this.burns.has(ethHash.toLowerCase());
  }

  /** Synchronous check-and-reserve: false if the txID is known or already being broadcast. */
  reserve(txID: string): boolean {
    if (this.byTx.has(txID) || this.reserved.has(txID)) return false;
    this.reserved.add(txID);
    return true;
  }

  release(txID: string): void {
    this.reserved.delete(txID);
    this.generation++;
    if (!this.reserved.size) for (const w of this.waiters.splice(0)) w();
  }

  /** A broadcast is between eth_sendTransaction and record(): anvil may already have mined a hash with no txID yet. */
  get busy(): boolean {
    return this.reserved.size > 0;
  }

  /**
   * Resolves when no broadcast is in flight (or after a second, so a steady stream of broadcasts cannot starve reads).
   */
  settled(): Promise<void> {
    if (!this.busy) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, 1000);
      this.waiters.push(() => {
        clearTimeout(timer);
        resolve();
      });
    });
  }

  record(txID: string, ethHash: string, tx: TronTxJson, paid?: { receipt: TronReceipt; burnHash?: string }): void {
    const receipt = paid
      ? Object.fromEntries(
          Object.entries(paid.receipt).map(([k, v]) => [k, typeof v === "bigint" ? Number(v) : String(v)]),
        )
      : undefined;
    const entry: Entry = {
      txID,
      ethHash: ethHash.toLowerCase(),
      tx,
      ...(receipt ? { receipt } : {}),
      ...(paid?.burnHash ? { burnHash: paid.burnHash.toLowerCase() } : {}),
    };
    fs.appendFileSync(this.file, `${JSON.stringify(entry)}\n`);
    this.remember(entry);
    this.release(txID);
  }

  get(txID: string): Entry | undefined {
    return this.byTx.get(normalizeId(txID));
  }

  /** The Tron id of an anvil transaction; one the facade did not broadcast keeps its anvil hash as id. */
  txIdOf(ethHash: string): string {
    return this.byEth.get(ethHash.toLowerCase()) ?? normalizeId(ethHash);
  }

  /**
   * The anvil hash behind a Tron id, or null when the id is the anvil hash of a facade transaction (it has a Tron id).
   */
  ethHashOf(txID: string): string | null {
    const id = normalizeId(txID);
    if (!/^[0-9a-f]{64}$/.test(id)) return null;
    const entry = this.byTx.get(id);
    if (entry) return entry.ethHash;
    return this.byEth.has(`0x${id}`) ? null : `0x${id}`;
  }

  clear(): void {
    fs.rmSync(this.file, { force: true });
    this.byTx.clear();
    this.byEth.clear();
    this.burns.clear();
  }
}

export const normalizeId = (id: string): string => String(id).replace(/^0x/i, "").toLowerCase();
