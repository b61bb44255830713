import type { FacadeContext, RpcMethod } from "./context";
import { commitmentOf, configAt, invalidParams, RPC_CODES, RpcError, toU64, type Config } from "./rpc-util";
import { formatAccountsOnly, formatMeta, formatTransaction, txEncodingOf, versionField } from "./tx-format";

/**
 * Blocks. Every sandbox slot produces a block, but only blocks holding transactions are kept for
 * good; empty ones are known for the most recent 1024 slots. Older empty slots answer like a node
 * whose ledger no longer has them (-32009 "skipped, or missing in long-term storage").
 */

const MAX_GET_BLOCKS_RANGE = 500_000;

function blockSlot(ctx: FacadeContext, config: Config): number {
  const commitment = commitmentOf(config);
  if (commitment === "processed") throw invalidParams("Method does not support commitment below `confirmed`");
  return ctx.ledger.commitmentSlot(commitment);
}

function missing(slot: number, readable: number): RpcError {
  if (slot > readable) return new RpcError(RPC_CODES.blockNotAvailable, `Block not available for slot ${slot}`);
  return new RpcError(
    RPC_CODES.longTermStorageSlotSkipped,
    `Slot ${slot} was skipped, or missing in long-term storage`,
  );
}

function hasBlock(ctx: FacadeContext, slot: number): boolean {
  return ctx.ledger.blocks.has(slot) || ctx.ledger.slotInfo(slot) !== undefined;
}

function blocksBetween(ctx: FacadeContext, start: number, end: number, limit = Infinity): number[] {
  const out: number[] = [];
  for (let slot = start; slot <= end && out.length < limit; slot++) if (hasBlock(ctx, slot)) out.push(slot);
  return out;
}

export const blockMethods: Record<string, RpcMethod> = {
  getBlock: (params, ctx) => {
    const slot = Number(toU64(params[0], "slot"));
    const config = configAt(params, 1);
    const readable = blockSlot(ctx, config);
    const encoding = txEncodingOf(config);
    const details = config.transactionDetails ?? "full";
    const info = ctx.ledger.slotInfo(slot);
    if (slot > readable || !info) throw missing(slot, readable);
    const block = ctx.ledger.blocks.get(slot);
    const records = (block?.signatures ?? []).map((s) => ctx.ledger.txs.get(s)!);
    const out: Record<string, unknown> = {
      blockHeight: slot,
      blockTime: block?.blockTime ?? info.time,
      blockhash: block?.blockhash ?? info.hash,
      parentSlot: Math.max(0, slot - 1),
      previousBlockhash: block?.previousBlockhash ?? ctx.ledger.slotInfo(slot - 1)?.hash ?? info.hash,
    };
    if (details === "full") {
      out.transactions = records.map((r) => ({
        meta: formatMeta(r, encoding),
        transaction: formatTransaction(r, encoding),
        ...versionField(r, config),
      }));
    } else if (details === "signatures") {
      out.signatures = records.map((r) => r.signature);
    } else if (details === "accounts") {
      out.transactions = records.map((r) => ({ ...formatAccountsOnly(r), ...versionField(r, config) }));
    } else if (details !== "none") {
      throw invalidParams(
        `Invalid params: unknown variant \`${String(details)}\`, ` +
          `expected one of \`full\`, \`signatures\`, \`none\`, \`accounts\``,
      );
    }
    if (config.rewards !== false) out.rewards = [];
    return out;
  },

  getBlockTime: (params, ctx) => {
    const slot = Number(toU64(params[0], "slot"));
    const info = ctx.ledger.slotInfo(slot);
    if (slot > ctx.ledger.slot || !info) throw missing(slot, ctx.ledger.slot);
    return info.time;
  },

  getBlocks: (params, ctx) => {
    const start = Number(toU64(params[0], "start slot"));
    const hasEnd = typeof params[1] === "number" || typeof params[1] === "string";
    const readable = blockSlot(ctx, hasEnd ? configAt(params, 2) : configAt(params, 1));
    const end = Math.min(hasEnd ? Number(toU64(params[1], "end slot")) : readable, readable);
    if (end - start > MAX_GET_BLOCKS_RANGE) throw invalidParams(`Slot range too large; max ${MAX_GET_BLOCKS_RANGE}`);
    return blocksBetween(ctx, start, end);
  },

  getBlocksWithLimit: (params, ctx) => {
    const start = Number(toU64(params[0], "start slot"));
    const limit = Number(toU64(params[1], "limit"));
    if (limit > MAX_GET_BLOCKS_RANGE) throw invalidParams(`Limit too large; max ${MAX_GET_BLOCKS_RANGE}`);
    return blocksBetween(ctx, start, blockSlot(ctx, configAt(params, 2)), limit);
  },
};
