import { envelope, formatAccount, readSlot, type RpcMethod } from "./context";
import { STATUS_CACHE_SLOTS } from "./ledger-state";
import {
  checkMinContextSlot,
  commitmentOf,
  configAt,
  invalidParams,
  optionalNumber,
  requireAddress,
  requireString,
  RPC_CODES,
  RpcError,
  toU64,
  type Config,
} from "./rpc-util";
import { tokenBalances } from "./token-layout";
import { decodeWireTransaction, verifySignatures } from "./tx-decode";
import { formatMeta, formatTransaction, memoOf, txEncodingOf, versionField } from "./tx-format";

/** Sending, simulating and looking up transactions. */

/** getTransaction and getSignaturesForAddress only read rooted or confirmed data. */
function confirmedReadSlot(ctx: Parameters<RpcMethod>[1], config: Config): number {
  if (commitmentOf(config) === "processed") throw invalidParams("Method does not support commitment below `confirmed`");
  return readSlot(ctx, config);
}

export const transactionMethods: Record<string, RpcMethod> = {
  sendTransaction: (params, ctx) => {
    const config = configAt(params, 1);
    const tx = decodeWireTransaction(requireString(params, 0, "transaction"), String(config.encoding ?? "base58"));
    if (config.preflightCommitment !== undefined) commitmentOf(config, "preflightCommitment");
    checkMinContextSlot(config, ctx.ledger.slot);
    return ctx.executor.send(tx, config.skipPreflight === true);
  },

  simulateTransaction: (params, ctx) => {
    const config = configAt(params, 1);
    const tx = decodeWireTransaction(requireString(params, 0, "transaction"), String(config.encoding ?? "base58"));
    const replace = config.replaceRecentBlockhash === true;
    if (config.sigVerify === true && replace)
      throw invalidParams("sigVerify may not be used with replaceRecentBlockhash");
    const slot = readSlot(ctx, config);
    if (config.sigVerify === true && !verifySignatures(tx))
      throw new RpcError(RPC_CODES.signatureVerificationFailure, "Transaction signature verification failure");
    const sim = ctx.executor.simulate(tx, replace);
    const wanted = config.accounts as { addresses?: string[]; encoding?: string } | undefined;
    const accounts = wanted?.addresses?.map((address) => {
      const state = sim.post ? (sim.post.has(address) ? sim.post.get(address)! : ctx.store.get(address)) : null;
      return state && formatAccount(ctx, state, { encoding: wanted.encoding ?? "base64" });
    });
    const post = sim.post && sim.keys ? sim.keys.accountKeys.map((k) => sim.post!.get(k) ?? null) : null;
    return envelope(slot, {
      accounts: accounts ?? null,
      err: sim.err,
      fee: sim.keys ? sim.fee : null,
      innerInstructions: config.innerInstructions === true ? sim.innerInstructions : null,
      loadedAccountsDataSize: 0,
      loadedAddresses: sim.keys?.loaded ?? null,
      logs: sim.logs,
      postBalances: post?.map((a) => a?.lamports ?? 0n),
      postTokenBalances: post && tokenBalances(post, ctx.store.decimalsOf),
      preBalances: sim.keys ? sim.pre.map((a) => a?.lamports ?? 0n) : null,
      preTokenBalances: sim.keys ? tokenBalances(sim.pre, ctx.store.decimalsOf) : null,
      replacementBlockhash: replace ? ctx.ledger.latestBlockhash(slot) : null,
      returnData: sim.returnData,
      unitsConsumed: sim.unitsConsumed,
    });
  },

  getSignatureStatuses: (params, ctx) => {
    const signatures = params[0];
    if (!Array.isArray(signatures)) throw invalidParams("Invalid params: expected an array of signatures");
    if (signatures.length > 256) throw invalidParams("Too many inputs provided; max 256");
    const search = configAt(params, 1).searchTransactionHistory === true;
    const { ledger } = ctx;
    const value = signatures.map((signature) => {
      const record = ledger.txs.get(String(signature));
      // Without searchTransactionHistory only the status cache (recent slots) is consulted.
      if (!record || (!search && ledger.slot - record.slot > STATUS_CACHE_SLOTS)) return null;
      const status = ledger.confirmationStatus(record.slot);
      return {
        confirmationStatus: status,
        confirmations: status === "finalized" ? null : ledger.slot - record.slot,
        err: record.err,
        slot: record.slot,
        status: record.err === null ? { Ok: null } : { Err: record.err },
      };
    });
    return envelope(ledger.slot, value);
  },

  getSignaturesForAddress: (params, ctx) => {
    const address = requireAddress(params, 0);
    const config = configAt(params, 1);
    const slot = confirmedReadSlot(ctx, config);
    const limit = optionalNumber(config, "limit") ?? 1000;
    if (limit < 1 || limit > 1000) throw invalidParams("Invalid limit; max 1000");
    const all = ctx.ledger.signaturesFor(address);
    let i = all.length - 1;
    if (typeof config.before === "string") {
      const at = all.lastIndexOf(config.before);
      i = at === -1 ? -1 : at - 1;
    }
    const out = [];
    for (; i >= 0 && out.length < limit; i--) {
      const record = ctx.ledger.txs.get(all[i]!)!;
      if (record.signature === config.until) break;
      if (record.slot > slot) continue;
      out.push({
        blockTime: record.blockTime,
        confirmationStatus: ctx.ledger.confirmationStatus(record.slot),
        err: record.err,
        memo: memoOf(record),
        signature: record.signature,
        slot: record.slot,
      });
    }
    return out;
  },

  getTransaction: (params, ctx) => {
    const signature = requireString(params, 0, "signature");
    const config: Config = typeof params[1] === "string" ? { encoding: params[1] } : configAt(params, 1);
    const slot = confirmedReadSlot(ctx, config);
    const encoding = txEncodingOf(config);
    const record = ctx.ledger.txs.get(signature);
    if (!record || record.slot > slot) return null;
    return {
      blockTime: record.blockTime,
      meta: formatMeta(record, encoding),
      slot: record.slot,
      transaction: formatTransaction(record, encoding),
      ...versionField(record, config),
    };
  },

  requestAirdrop: async (params, ctx) => {
    const address = requireAddress(params, 0);
    const lamports = toU64(params[1], "lamports");
    if (lamports === 0n) throw invalidParams("Invalid params: lamports must be greater than zero");
    readSlot(ctx, configAt(params, 2));
    return ctx.airdrop(address, lamports);
  },
};
