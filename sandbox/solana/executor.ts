import { FailedTransactionMetadata, type LiteSVM, type TransactionMetadata } from "litesvm";
import type { AccountState, AccountStore } from "./account-store";
import type { Ledger, TxRecord } from "./ledger-state";
import { RPC_CODES, RpcError } from "./rpc-util";
import { tokenBalances } from "./token-layout";
import { FeeMarket } from "./fee-market";
import {
  computeBudget,
  computeFee,
  resolveKeys,
  verifySignatures,
  type DecodedTx,
  type ResolvedKeys,
} from "./tx-decode";
import { txErrorFromLiteSvm, txErrorMessage, type TxErrorJson } from "./tx-errors";
import { toBase58, toBase64 } from "./wire";

/**
 * Runs transactions on LiteSVM the way a node's RPC + bank would: preflight (signature check, then
 * simulation incl. blockhash age and the already-processed check), execution in the current slot,
 * and a ledger record with balances, token balances, logs and the error of failed-but-landed ones.
 */

export interface SimulationResult {
  err: TxErrorJson | null;
  logs: string[];
  unitsConsumed: number;
  keys: ResolvedKeys | null;
  pre: Array<AccountState | null>;
  /** Post-simulation state by address (only for successful simulations, which LiteSVM reports). */
  post: Map<string, AccountState | null> | null;
  fee: bigint;
  innerInstructions: TxRecord["innerInstructions"];
  returnData: TxRecord["returnData"];
}

export class Executor {
  /**
   * Sandbox control: this many of the next valid transactions (of one fee payer, when given) are accepted and
   * never land, as if a leader dropped them.
   */
  drop: { count: number; feePayer: string | null } = { count: 0, feePayer: null };
  /** Prices paid per slot and account, and the congestion control (fee-market.ts). */
  readonly fees = new FeeMarket();

  constructor(
    private readonly svm: LiteSVM,
    private readonly store: AccountStore,
    private readonly ledger: Ledger,
  ) {}

  /** sendTransaction: returns the signature, or throws the node's preflight errors. */
  send(tx: DecodedTx, skipPreflight: boolean): string {
    if (!skipPreflight) {
      if (!verifySignatures(tx))
        throw new RpcError(RPC_CODES.signatureVerificationFailure, "Transaction signature verification failure");
      const sim = this.simulate(tx, false);
      if (sim.err)
        throw new RpcError(
          RPC_CODES.preflightFailure,
          `Transaction simulation failed: ${txErrorMessage(sim.err)}`,
          preflightErrorData(sim),
        );
    } else if (
      !verifySignatures(tx) ||
      !this.ledger.isBlockhashValid(tx.blockhash) ||
      this.ledger.txs.has(tx.signature)
    ) {
      // Without preflight a node forwards anything; the cluster then drops it and it never lands.
      return tx.signature;
    }
    if (this.drop.count > 0 && (this.drop.feePayer === null || this.drop.feePayer === tx.staticKeys[0])) {
      // Accepted and forwarded, then lost on the way to a leader, as congested clusters do: it never lands.
      this.drop.count--;
      return tx.signature;
    }
    const { price } = computeBudget(tx);
    if (this.fees.pricedOut(tx, price)) this.fees.hold(tx, price);
    else this.execute(tx);
    return tx.signature;
  }

  /** A new slot: the fee market opens it, and held transactions now priced in (and still valid) land in it. */
  openSlot(): void {
    this.fees.openSlot(this.ledger.slot);
    const usable = (tx: DecodedTx) => this.ledger.isBlockhashValid(tx.blockhash) && !this.ledger.txs.has(tx.signature);
    for (const tx of this.fees.release(usable)) this.execute(tx);
  }

  /** Simulates on the newest state without committing anything. */
  simulate(tx: DecodedTx, replaceBlockhash: boolean): SimulationResult {
    const result: SimulationResult = {
      err: null,
      logs: [],
      unitsConsumed: 0,
      keys: null,
      pre: [],
      post: null,
      fee: computeFee(tx),
      innerInstructions: [],
      returnData: null,
    };
    if (!replaceBlockhash && !this.ledger.isBlockhashValid(tx.blockhash))
      return { ...result, err: "BlockhashNotFound" };
    if (this.ledger.txs.has(tx.signature)) return { ...result, err: "AlreadyProcessed" };
    const keys = resolveKeys(tx, (a) => this.store.get(a));
    if (!isResolved(keys)) return { ...result, err: keys };
    result.keys = keys;
    result.pre = this.capture(tx, keys);
    const outcome = this.svm.simulateTransaction(tx.transaction);
    if (outcome instanceof FailedTransactionMetadata)
      return { ...result, err: txErrorFromLiteSvm(outcome.err()), ...metaFields(outcome.meta()) };
    result.post = new Map(keys.accountKeys.map((k, i) => [k, result.pre[i] ?? null]));
    for (const account of outcome.postAccounts()) {
      const lamports = BigInt(account.lamports);
      result.post.set(
        account.address,
        lamports === 0n
          ? null
          : {
              lamports,
              owner: account.programAddress,
              data: new Uint8Array(account.data),
              executable: account.executable,
            },
      );
    }
    return { ...result, ...metaFields(outcome.meta()) };
  }

  /** Executes in the current slot; records it if it landed (succeeded, or failed after paying its fee). */
  execute(tx: DecodedTx): TxRecord | null {
    const keys = resolveKeys(tx, (a) => this.store.get(a));
    if (!isResolved(keys)) return null;
    const pre = this.capture(tx, keys);
    const outcome = this.svm.sendTransaction(tx.transaction);
    const post = this.capture(tx, keys);
    const failed = outcome instanceof FailedTransactionMetadata;
    // A failure that charged no fee (unknown payer, insufficient funds for fee, ...) never lands.
    if (failed && (post[0]?.lamports ?? 0n) >= (pre[0]?.lamports ?? 0n)) return null;
    const slot = this.ledger.slot;
    const meta = metaFields(failed ? outcome.meta() : outcome);
    keys.writable.forEach((w, i) => {
      if (w) this.store.noteWrite(keys.accountKeys[i]!, slot, pre[i] ?? null);
    });
    const record: TxRecord = {
      signature: tx.signature,
      slot,
      blockTime: this.ledger.slotInfo(slot)?.time ?? Math.floor(Date.now() / 1000),
      raw: toBase64(tx.bytes),
      version: tx.version,
      accountKeys: keys.accountKeys,
      loadedAddresses: keys.loaded,
      err: failed ? txErrorFromLiteSvm(outcome.err()) : null,
      fee: computeFee(tx).toString(),
      preBalances: pre.map((a) => (a?.lamports ?? 0n).toString()),
      postBalances: post.map((a) => (a?.lamports ?? 0n).toString()),
      preTokenBalances: tokenBalances(pre, this.store.decimalsOf),
      postTokenBalances: tokenBalances(post, this.store.decimalsOf),
      logMessages: meta.logs,
      innerInstructions: meta.innerInstructions,
      computeUnitsConsumed: meta.unitsConsumed,
      returnData: meta.returnData,
    };
    this.ledger.record(record);
    const locked = keys.accountKeys.filter((_, i) => keys.writable[i]);
    this.fees.record(slot, computeBudget(tx).price, locked);
    return record;
  }

  /**
   * Account states for the transaction's keys; programs it invokes
   * are read for lamports only (their data is large and unused).
   */
  private capture(tx: DecodedTx, keys: ResolvedKeys): Array<AccountState | null> {
    const programs = new Set(tx.instructions.map((ix) => ix.programIdIndex));
    return keys.accountKeys.map((key, i) => {
      if (!programs.has(i)) return this.store.get(key);
      const lamports = this.svm.getBalance(key as never);
      return lamports ? { lamports: BigInt(lamports), owner: "", data: new Uint8Array(), executable: true } : null;
    });
  }
}

function isResolved(keys: ResolvedKeys | TxErrorJson): keys is ResolvedKeys {
  return typeof keys === "object" && "accountKeys" in keys;
}

function metaFields(meta: TransactionMetadata) {
  const innerInstructions = meta
    .innerInstructions()
    .map((list, index) => ({
      index,
      instructions: list.map((inner) => {
        const ix = inner.instruction();
        return {
          programIdIndex: ix.programIdIndex(),
          accounts: [...ix.accounts()],
          data: toBase58(ix.data()),
          stackHeight: inner.stackHeight(),
        };
      }),
    }))
    .filter((group) => group.instructions.length > 0);
  const ret = meta.returnData();
  const returnData: TxRecord["returnData"] =
    ret.data().length > 0 ? { programId: toBase58(ret.programId()), data: [toBase64(ret.data()), "base64"] } : null;
  return { logs: meta.logs(), unitsConsumed: Number(meta.computeUnitsConsumed()), innerInstructions, returnData };
}

/** The `data` of a -32002 error: the simulation result, as a node sends it. */
export function preflightErrorData(sim: SimulationResult) {
  return {
    accounts: null,
    err: sim.err,
    innerInstructions: null,
    loadedAccountsDataSize: 0,
    logs: sim.logs,
    replacementBlockhash: null,
    returnData: sim.returnData,
    unitsConsumed: sim.unitsConsumed,
  };
}
