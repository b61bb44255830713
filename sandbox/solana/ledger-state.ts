import { createHash, randomBytes } from "node:crypto";
import type { Commitment } from "./rpc-util";
import type { TokenBalance } from "./token-layout";
import type { TxErrorJson } from "./tx-errors";
import { fromBase58, toBase58 } from "./wire";

/**
 * The chain around LiteSVM: slots, the blockhash window, and the transaction index a validator's
 * ledger would answer from (LiteSVM itself keeps no blocks and forgets everything on exit).
 */

/** A blockhash is usable for 150 slots, as on a real cluster (MAX_PROCESSING_AGE). */
export const MAX_PROCESSING_AGE = 150;
/**
 * `finalized` trails the tip by 32 slots (the depth at which a real cluster roots a block); a test stack passes a
 * shallower depth (`startSolanaSandbox({ finalityDepth })`) to wait for what happens rather than for slots.
 */
export const DEFAULT_FINALITY_DEPTH = 32;
/** Without `searchTransactionHistory`, getSignatureStatuses only sees the status cache (300 slots). */
export const STATUS_CACHE_SLOTS = 300;
/** Recent slots whose hash and time are kept (and persisted) even when they hold no transaction. */
const SLOT_RING = 1024;

export interface TxRecord {
  signature: string;
  slot: number;
  blockTime: number;
  raw: string; // base64 wire transaction
  version: "legacy" | 0;
  accountKeys: string[];
  loadedAddresses: { writable: string[]; readonly: string[] };
  err: TxErrorJson | null;
  fee: string;
  preBalances: string[];
  postBalances: string[];
  preTokenBalances: TokenBalance[];
  postTokenBalances: TokenBalance[];
  logMessages: string[];
  innerInstructions: Array<{
    index: number;
    instructions: Array<{ programIdIndex: number; accounts: number[]; data: string; stackHeight: number }>;
  }>;
  computeUnitsConsumed: number;
  returnData: { programId: string; data: [string, "base64"] } | null;
}

export interface BlockInfo {
  blockhash: string;
  previousBlockhash: string;
  blockTime: number;
  signatures: string[];
}

export interface LedgerSnapshot {
  slot: number;
  slots: Array<[number, string, number]>;
  blocks: Array<[number, string, string, number]>;
}

export class Ledger {
  slot: number;
  private readonly slots = new Map<number, { hash: string; time: number }>();
  private readonly hashSlots = new Map<string, number>();
  readonly blocks = new Map<number, BlockInfo>();
  readonly txs = new Map<string, TxRecord>();
  /** Transactions in landing order; persistence appends from its last saved position. */
  readonly order: TxRecord[] = [];
  private readonly byAddress = new Map<string, string[]>();

  constructor(
    snapshot: LedgerSnapshot,
    records: TxRecord[],
    readonly finalityDepth = DEFAULT_FINALITY_DEPTH,
  ) {
    this.slot = snapshot.slot;
    for (const [slot, hash, time] of snapshot.slots) this.addSlot(slot, hash, time);
    for (const [slot, blockhash, previousBlockhash, blockTime] of snapshot.blocks)
      this.blocks.set(slot, { blockhash, previousBlockhash, blockTime, signatures: [] });
    for (const record of records) this.record(record);
  }

  private addSlot(slot: number, hash: string, time: number): void {
    this.slots.set(slot, { hash, time });
    this.hashSlots.set(hash, slot);
    const old = this.slots.get(slot - SLOT_RING);
    if (old) {
      this.slots.delete(slot - SLOT_RING);
      this.hashSlots.delete(old.hash);
    }
  }

  /**
   * Starts the next slot. Its blockhash chains from the previous one (sha256 of previous hash and
   * slot): unique across restarts, unlike LiteSVM's own sequence, which restarts from the same seed.
   */
  advance(time: number): number {
    const previous = this.slotInfo(this.slot)?.hash ?? toBase58(randomBytes(32));
    const slotBytes = Buffer.alloc(8);
    slotBytes.writeBigUInt64LE(BigInt(this.slot + 1));
    const hash = toBase58(createHash("sha256").update(fromBase58(previous)).update(slotBytes).digest());
    this.slot += 1;
    this.addSlot(this.slot, hash, time);
    return this.slot;
  }

  /** A new chain: slot 0 with a random genesis hash. */
  static genesis(time: number): LedgerSnapshot {
    return { slot: 0, slots: [[0, toBase58(randomBytes(32)), time]], blocks: [] };
  }

  /**
   * The bank slot a commitment reads from: processed sees the tip, the slot still taking transactions; confirmed
   * the last complete one (a real cluster votes on a block once its leader has produced it, so a confirmed block
   * never gains a transaction); finalized `finalityDepth` (32) behind confirmed.
   */
  commitmentSlot(commitment: Commitment): number {
    if (commitment === "processed") return this.slot;
    return Math.max(0, this.slot - 1 - (commitment === "finalized" ? this.finalityDepth : 0));
  }

  slotInfo(slot: number): { hash: string; time: number } | undefined {
    const block = this.blocks.get(slot);
    return this.slots.get(slot) ?? (block && { hash: block.blockhash, time: block.blockTime });
  }

  blockhashSlot(hash: string): number | undefined {
    return this.hashSlots.get(hash);
  }

  /** Valid at bank `atSlot` if the hash was produced by then and is at most 150 slots old. */
  isBlockhashValid(hash: string, atSlot = this.slot): boolean {
    const slot = this.hashSlots.get(hash);
    return slot !== undefined && slot <= atSlot && atSlot <= slot + MAX_PROCESSING_AGE;
  }

  latestBlockhash(atSlot: number): { blockhash: string; lastValidBlockHeight: number } {
    const info = this.slotInfo(atSlot) ?? this.slotInfo(this.slot)!;
    return { blockhash: info.hash, lastValidBlockHeight: atSlot + MAX_PROCESSING_AGE };
  }

  record(tx: TxRecord): void {
    this.txs.set(tx.signature, tx);
    this.order.push(tx);
    let block = this.blocks.get(tx.slot);
    if (!block) {
      const info = this.slotInfo(tx.slot) ?? { hash: "11111111111111111111111111111111", time: tx.blockTime };
      const previous = this.slotInfo(tx.slot - 1)?.hash ?? info.hash;
      this.blocks.set(
        tx.slot,
        (block = { blockhash: info.hash, previousBlockhash: previous, blockTime: info.time, signatures: [] }),
      );
    }
    block.signatures.push(tx.signature);
    for (const key of new Set(tx.accountKeys)) {
      const list = this.byAddress.get(key);
      if (list) list.push(tx.signature);
      else this.byAddress.set(key, [tx.signature]);
    }
  }

  /** Signatures touching `address`, oldest first. */
  signaturesFor(address: string): readonly string[] {
    return this.byAddress.get(address) ?? [];
  }

  confirmationStatus(slot: number): "processed" | "confirmed" | "finalized" {
    if (slot <= this.commitmentSlot("finalized")) return "finalized";
    return slot <= this.commitmentSlot("confirmed") ? "confirmed" : "processed";
  }

  snapshot(): LedgerSnapshot {
    return {
      slot: this.slot,
      slots: [...this.slots].map(([slot, { hash, time }]) => [slot, hash, time]),
      blocks: [...this.blocks].map(([slot, b]) => [slot, b.blockhash, b.previousBlockhash, b.blockTime]),
    };
  }
}
