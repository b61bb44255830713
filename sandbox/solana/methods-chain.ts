import { getCompiledTransactionMessageDecoder } from "@solana/kit";
import { envelope, FEATURE_SET, readSlot, SOLANA_CORE_VERSION, type RpcMethod } from "./context";
import { MAX_FEE_ACCOUNTS } from "./fee-market";
import { assertAddress, configAt, invalidParams, requireString, toU64 } from "./rpc-util";
import { computeFee } from "./tx-decode";
import { fromBase64 } from "./wire";

/** Cluster-level methods: slots, blockhashes, fees, rent, version and health. */

const SLOTS_PER_EPOCH = 432_000;

export const chainMethods: Record<string, RpcMethod> = {
  getSlot: (params, ctx) => readSlot(ctx, configAt(params, 0)),

  // Every slot holds a block in the sandbox (no skipped leaders), so block height equals slot.
  getBlockHeight: (params, ctx) => readSlot(ctx, configAt(params, 0)),

  getLatestBlockhash: (params, ctx) => {
    const slot = readSlot(ctx, configAt(params, 0));
    return envelope(slot, ctx.ledger.latestBlockhash(slot));
  },

  isBlockhashValid: (params, ctx) => {
    const hash = requireString(params, 0, "blockhash");
    const slot = readSlot(ctx, configAt(params, 1));
    return envelope(slot, ctx.ledger.isBlockhashValid(hash, slot));
  },

  getFeeForMessage: (params, ctx) => {
    const encoded = requireString(params, 0, "message");
    const slot = readSlot(ctx, configAt(params, 1));
    let message;
    try {
      message = getCompiledTransactionMessageDecoder().decode(fromBase64(encoded));
    } catch {
      throw invalidParams("invalid transaction: failed to deserialize message");
    }
    if (message.version !== "legacy" && message.version !== 0)
      throw invalidParams("invalid transaction: Transaction version is unsupported");
    if (!ctx.ledger.isBlockhashValid(String(message.lifetimeToken), slot)) return envelope(slot, null);
    const staticKeys = message.staticAccounts.map(String);
    const instructions = message.instructions.map((ix) => ({
      programIdIndex: ix.programAddressIndex,
      accounts: [],
      data: new Uint8Array(ix.data ?? []),
    }));
    const signatures = Array.from({ length: message.header.numSignerAccounts }, () => new Uint8Array(64));
    return envelope(slot, computeFee({ signatures, staticKeys, instructions }));
  },

  // Per recent slot, the lowest compute-unit price paid (raised to the given write-locked accounts'): fee-market.ts.
  getRecentPrioritizationFees: (params, ctx) => {
    const accounts = params[0] ?? [];
    if (!Array.isArray(accounts)) throw invalidParams("Invalid params: invalid type: expected a sequence");
    if (accounts.length > MAX_FEE_ACCOUNTS) throw invalidParams(`Too many inputs provided; max ${MAX_FEE_ACCOUNTS}`);
    const keys = accounts.map((a) => assertAddress(a));
    return ctx.executor.fees.recent(keys, ctx.ledger.slot);
  },

  getMinimumBalanceForRentExemption: (params, ctx) => {
    const size = toU64(params[0] ?? 0, "data length");
    readSlot(ctx, configAt(params, 1));
    return ctx.store.minimumBalance(size);
  },

  getEpochInfo: (params, ctx) => {
    const slot = readSlot(ctx, configAt(params, 0));
    const transactionCount = ctx.ledger.order.filter((tx) => tx.slot <= slot).length;
    return {
      absoluteSlot: slot,
      blockHeight: slot,
      epoch: Math.floor(slot / SLOTS_PER_EPOCH),
      slotIndex: slot % SLOTS_PER_EPOCH,
      slotsInEpoch: SLOTS_PER_EPOCH,
      transactionCount,
    };
  },

  getEpochSchedule: () => ({
    firstNormalEpoch: 0,
    firstNormalSlot: 0,
    leaderScheduleSlotOffset: SLOTS_PER_EPOCH,
    slotsPerEpoch: SLOTS_PER_EPOCH,
    warmup: false,
  }),

  getTransactionCount: (params, ctx) => {
    const slot = readSlot(ctx, configAt(params, 0));
    return ctx.ledger.order.filter((tx) => tx.slot <= slot).length;
  },

  getGenesisHash: (_params, ctx) => ctx.genesisHash,

  // Sandbox extension (no real node has it): produce `count` slots now, the emulated chain's "mine".
  sandbox_advanceSlots: (params, ctx) => {
    const count = Number(toU64(params[0] ?? 1, "count"));
    if (count < 1 || count > 10_000) throw invalidParams("count must be between 1 and 10000");
    ctx.advanceSlots(count);
    return ctx.ledger.slot;
  },
  // Sandbox extension: the next `count` transactions sent (by one fee payer, when given) are accepted, their
  // signature returned, and never land, as a cluster under load drops forwarded transactions.
  sandbox_dropNextTransactions: (params, ctx) => {
    const count = Number(toU64(params[0] ?? 1, "count"));
    if (count > 100) throw invalidParams("count must be between 0 and 100");
    const feePayer = params[1] === undefined || params[1] === null ? null : String(params[1]);
    ctx.executor.drop = { count, feePayer };
    return count;
  },
  // Sandbox extension: congestion. The others' traffic pays this compute-unit price (micro-lamports) in every
  // block; a transaction priced under it is held until the price falls to it or its blockhash expires. 0 ends it.
  sandbox_setPriorityFeeFloor: (params, ctx) => {
    const floor = toU64(params[0] ?? 0, "micro-lamports");
    ctx.executor.fees.floor = floor;
    return floor;
  },
  getVersion: () => ({ "solana-core": SOLANA_CORE_VERSION, "feature-set": FEATURE_SET }),
  getHealth: () => "ok",
  getFirstAvailableBlock: (_params, ctx) => Math.min(...ctx.ledger.blocks.keys(), ctx.ledger.slot),
  minimumLedgerSlot: (_params, ctx) => Math.min(...ctx.ledger.blocks.keys(), ctx.ledger.slot),
};
