import type { TxRecord } from "./ledger-state";
import { parseInstruction } from "./parsed-instructions";
import { invalidParams, RPC_CODES, RpcError, type Config } from "./rpc-util";
import { decodeWireTransaction, staticWritable, type DecodedTx } from "./tx-decode";
import { fromBase58, fromBase64, toBase58 } from "./wire";

/** A recorded transaction in the shapes getTransaction and getBlock return. */

export type TxEncoding = "json" | "jsonParsed" | "base64" | "base58";

export function txEncodingOf(config: Config): TxEncoding {
  const encoding = config.encoding ?? "json";
  if (encoding === "json" || encoding === "jsonParsed" || encoding === "base64" || encoding === "base58")
    return encoding;
  throw invalidParams(
    `Invalid params: unknown variant \`${String(encoding)}\`, ` +
      `expected one of \`binary\`, \`base64\`, \`base58\`, \`json\`, \`jsonParsed\``,
  );
}

/** Without maxSupportedTransactionVersion a node refuses to return a v0 transaction, and omits `version`. */
export function versionField(record: TxRecord, config: Config): { version?: "legacy" | 0 } {
  const max = config.maxSupportedTransactionVersion;
  if (max === undefined || max === null) {
    if (record.version === 0) {
      throw new RpcError(
        RPC_CODES.unsupportedTransactionVersion,
        "Transaction version (0) is not supported by the requesting client. " +
          "Please try the request again with the following configuration parameter: " +
          '"maxSupportedTransactionVersion": 0',
      );
    }
    return {};
  }
  if (max !== 0) throw invalidParams(`Invalid params: unsupported maxSupportedTransactionVersion ${String(max)}`);
  return { version: record.version };
}

function decoded(record: TxRecord): DecodedTx {
  return decodeWireTransaction(record.raw, "base64");
}

function lookupsJson(tx: DecodedTx) {
  return tx.version === 0 ? { addressTableLookups: tx.lookups } : {};
}

/** `jsonParsed` account keys: static keys, then lookup-table ones (writable first). */
function parsedAccountKeys(record: TxRecord, tx: DecodedTx) {
  const writable = staticWritable(tx);
  const n = tx.staticKeys.length;
  return record.accountKeys.map((pubkey, i) => ({
    pubkey,
    signer: i < tx.header.numRequiredSignatures,
    source: i < n ? "transaction" : "lookupTable",
    writable: i < n ? writable[i]! : i < n + record.loadedAddresses.writable.length,
  }));
}

export function formatTransaction(record: TxRecord, encoding: TxEncoding) {
  if (encoding === "base64") return [record.raw, "base64"];
  if (encoding === "base58") return [toBase58(fromBase64(record.raw)), "base58"];
  const tx = decoded(record);
  const signatures = tx.signatures.map(toBase58);
  if (encoding === "json") {
    const instructions = tx.instructions.map((ix) => ({
      accounts: ix.accounts,
      data: toBase58(ix.data),
      programIdIndex: ix.programIdIndex,
      stackHeight: null,
    }));
    return {
      message: {
        accountKeys: tx.staticKeys,
        header: tx.header,
        instructions,
        recentBlockhash: tx.blockhash,
        ...lookupsJson(tx),
      },
      signatures,
    };
  }
  const keys = record.accountKeys;
  const accountKeys = parsedAccountKeys(record, tx);
  const instructions = tx.instructions.map((ix) =>
    parseInstruction(
      keys[ix.programIdIndex]!,
      ix.accounts.map((a) => keys[a]!),
      ix.data,
      null,
    ),
  );
  return { message: { accountKeys, instructions, recentBlockhash: tx.blockhash, ...lookupsJson(tx) }, signatures };
}

export function formatMeta(record: TxRecord, encoding: TxEncoding) {
  const parsed = encoding === "jsonParsed";
  const innerInstructions = record.innerInstructions.map((group) => ({
    index: group.index,
    instructions: group.instructions.map((ix) =>
      parsed
        ? parseInstruction(
            record.accountKeys[ix.programIdIndex]!,
            ix.accounts.map((a) => record.accountKeys[a]!),
            fromBase58(ix.data),
            ix.stackHeight,
          )
        : ix,
    ),
  }));
  return {
    computeUnitsConsumed: record.computeUnitsConsumed,
    err: record.err,
    fee: BigInt(record.fee),
    innerInstructions,
    ...(parsed ? {} : { loadedAddresses: record.loadedAddresses }),
    logMessages: record.logMessages,
    postBalances: record.postBalances.map(BigInt),
    postTokenBalances: record.postTokenBalances,
    preBalances: record.preBalances.map(BigInt),
    preTokenBalances: record.preTokenBalances,
    ...(record.returnData ? { returnData: record.returnData } : {}),
    rewards: [],
    status: record.err === null ? { Ok: null } : { Err: record.err },
  };
}

/** getBlock's `transactionDetails: "accounts"`: account keys and balances only. */
export function formatAccountsOnly(record: TxRecord) {
  const tx = decoded(record);
  const accountKeys = parsedAccountKeys(record, tx);
  const meta = formatMeta(record, "json");
  const { err, fee, postBalances, postTokenBalances, preBalances, preTokenBalances, status } = meta;
  return {
    transaction: { accountKeys, signatures: tx.signatures.map(toBase58) },
    meta: { err, fee, postBalances, postTokenBalances, preBalances, preTokenBalances, status },
  };
}

const MEMO_PROGRAMS = new Set([
  "MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr",
  "Memo1UhkJRfHyvLMcVucJwxXeuD728EqVDDwQDxFMNo",
]);

/** getSignaturesForAddress's `memo`: "[<byte length>] <text>" per memo instruction, joined by "; ". */
export function memoOf(record: TxRecord): string | null {
  if (!record.accountKeys.some((k) => MEMO_PROGRAMS.has(k))) return null;
  const memos = decoded(record)
    .instructions.filter((ix) => MEMO_PROGRAMS.has(record.accountKeys[ix.programIdIndex]!))
    .map((ix) => `[${ix.data.length}] ${new TextDecoder().decode(ix.data)}`);
  return memos.length > 0 ? memos.join("; ") : null;
}
