import { createPublicKey, verify, type KeyObject } from "node:crypto";
import { getCompiledTransactionMessageDecoder, getTransactionDecoder, type Transaction } from "@solana/kit";
import type { AccountState } from "./account-store";
import { invalidParams } from "./rpc-util";
import { COMPUTE_BUDGET_PROGRAM, LOOKUP_TABLE_PROGRAM } from "./token-layout";
import type { TxErrorJson } from "./tx-errors";
import { fromBase58, fromBase64, readU32, readU64, toBase58 } from "./wire";

/** Wire transactions: decoding, account keys (with lookup tables), signature checks and fees. */

const PACKET_DATA_SIZE = 1232;
export const LAMPORTS_PER_SIGNATURE = 5000n;

export interface DecodedTx {
  bytes: Uint8Array;
  transaction: Transaction;
  version: "legacy" | 0;
  signatures: Uint8Array[];
  signature: string;
  messageBytes: Uint8Array;
  header: { numRequiredSignatures: number; numReadonlySignedAccounts: number; numReadonlyUnsignedAccounts: number };
  staticKeys: string[];
  blockhash: string;
  instructions: Array<{ programIdIndex: number; accounts: number[]; data: Uint8Array }>;
  lookups: Array<{ accountKey: string; writableIndexes: number[]; readonlyIndexes: number[] }>;
}

export interface ResolvedKeys {
  accountKeys: string[];
  writable: boolean[];
  loaded: { writable: string[]; readonly: string[] };
}

function readShortVec(bytes: Uint8Array, offset: number): [number, number] {
  let value = 0;
  for (let i = 0; i < 3; i++) {
    const byte = bytes[offset + i];
    if (byte === undefined) throw new Error("truncated");
    value |= (byte & 0x7f) << (7 * i);
    if ((byte & 0x80) === 0) return [value, offset + i + 1];
  }
  throw new Error("bad length");
}

export function decodeWireTransaction(encoded: string, encoding: string): DecodedTx {
  if (encoding !== "base58" && encoding !== "base64")
    throw invalidParams(`Invalid params: unknown variant \`${encoding}\`, expected \`base58\` or \`base64\``);
  let bytes: Uint8Array;
  try {
    bytes = encoding === "base58" ? fromBase58(encoded) : fromBase64(encoded);
  } catch {
    throw invalidParams(`invalid ${encoding} encoding: ${encoding === "base58" ? "Invalid" : "InvalidByte"}`);
  }
  if (bytes.length > PACKET_DATA_SIZE) {
    throw invalidParams(
      `${encoding} encoded solana_transaction::versioned::VersionedTransaction too large: ${encoded.length} bytes ` +
        `(max: encoded/raw ${encoding === "base58" ? 1683 : 1644}/${PACKET_DATA_SIZE})`,
    );
  }
  try {
    const [count, start] = readShortVec(bytes, 0);
    const signatures = Array.from({ length: count }, (_, i) => bytes.slice(start + 64 * i, start + 64 * (i + 1)));
    const messageBytes = bytes.slice(start + 64 * count);
    const message = getCompiledTransactionMessageDecoder().decode(messageBytes);
    if (message.version !== "legacy" && message.version !== 0)
      throw invalidParams("invalid transaction: Transaction version is unsupported");
    if (count === 0 || count !== message.header.numSignerAccounts || signatures.some((s) => s.length !== 64))
      throw new Error("signature count");
    const staticKeys = message.staticAccounts.map(String);
    const lookups = "addressTableLookups" in message ? (message.addressTableLookups ?? []) : [];
    const instructions = message.instructions.map((ix) => ({
      programIdIndex: ix.programAddressIndex,
      accounts: [...(ix.accountIndices ?? [])],
      data: new Uint8Array(ix.data ?? []),
    }));
    const total =
      staticKeys.length + lookups.reduce((n, l) => n + l.writableIndexes.length + l.readonlyIndexes.length, 0);
    if (instructions.some((ix) => ix.programIdIndex >= staticKeys.length || ix.accounts.some((a) => a >= total)))
      throw new Error("account index");
    return {
      bytes,
      transaction: getTransactionDecoder().decode(bytes),
      version: message.version,
      signatures,
      signature: toBase58(signatures[0]!),
      messageBytes,
      header: {
        numRequiredSignatures: message.header.numSignerAccounts,
        numReadonlySignedAccounts: message.header.numReadonlySignerAccounts,
        numReadonlyUnsignedAccounts: message.header.numReadonlyNonSignerAccounts,
      },
      staticKeys,
      blockhash: String(message.lifetimeToken),
      instructions,
      lookups: lookups.map((l) => ({
        accountKey: String(l.lookupTableAddress),
        writableIndexes: [...l.writableIndexes],
        readonlyIndexes: [...l.readonlyIndexes],
      })),
    };
  } catch (error) {
    if (error instanceof Error && "code" in error) throw error;
    throw invalidParams(
      `failed to deserialize solana_transaction::versioned::VersionedTransaction: ` +
        `${error instanceof Error ? error.message : "invalid"}`,
    );
  }
}

/**
 * Static keys, then the lookup-table addresses (all writable
 * ones, then all read-only ones), as the runtime orders them.
 */
export function resolveKeys(tx: DecodedTx, read: (address: string) => AccountState | null): ResolvedKeys | TxErrorJson {
  const loaded = { writable: [] as string[], readonly: [] as string[] };
  for (const lookup of tx.lookups) {
    const table = read(lookup.accountKey);
    if (!table) return "AddressLookupTableNotFound";
    if (table.owner !== LOOKUP_TABLE_PROGRAM) return "InvalidAddressLookupTableOwner";
    if (table.data.length < 56 || (table.data.length - 56) % 32 !== 0) return "InvalidAddressLookupTableData";
    const size = (table.data.length - 56) / 32;
    const at = (i: number) => toBase58(table.data.subarray(56 + 32 * i, 88 + 32 * i));
    if ([...lookup.writableIndexes, ...lookup.readonlyIndexes].some((i) => i >= size))
      return "InvalidAddressLookupTableIndex";
    loaded.writable.push(...lookup.writableIndexes.map(at));
    loaded.readonly.push(...lookup.readonlyIndexes.map(at));
  }
  const writable = staticWritable(tx);
  writable.push(...loaded.writable.map(() => true), ...loaded.readonly.map(() => false));
  return { accountKeys: [...tx.staticKeys, ...loaded.writable, ...loaded.readonly], writable, loaded };
}

/** Writable flags of the static keys, from the message header. */
export function staticWritable(tx: Pick<DecodedTx, "header" | "staticKeys">): boolean[] {
  const {
    numRequiredSignatures: signers,
    numReadonlySignedAccounts: roSigned,
    numReadonlyUnsignedAccounts: roUnsigned,
  } = tx.header;
  const n = tx.staticKeys.length;
  return tx.staticKeys.map((_, i) => (i < signers ? i < signers - roSigned : i < n - roUnsigned));
}

const SPKI_ED25519_PREFIX = Buffer.from("302a300506032b6570032100", "hex");
const publicKeys = new Map<string, KeyObject>();

function publicKeyFor(address: string): KeyObject {
  let key = publicKeys.get(address);
  if (!key) {
    if (publicKeys.size > 10_000) publicKeys.clear();
    key = createPublicKey({
      key: Buffer.concat([SPKI_ED25519_PREFIX, fromBase58(address)]),
      format: "der",
      type: "spki",
    });
    publicKeys.set(address, key);
  }
  return key;
}

/** Ed25519 check of every required signature over the message bytes (OpenSSL, so it stays cheap). */
export function verifySignatures(tx: DecodedTx): boolean {
  return tx.signatures.every((signature, i) => {
    try {
      return verify(null, tx.messageBytes, publicKeyFor(tx.staticKeys[i]!), signature);
    } catch {
      return false;
    }
  });
}

/**
 * Builtins get 3,000 default compute units per instruction,
 * other programs 200,000 (as in Agave, which LiteSVM follows).
 */
const BUILTINS = new Set([
  "11111111111111111111111111111111",
  COMPUTE_BUDGET_PROGRAM,
  LOOKUP_TABLE_PROGRAM,
  "Vote111111111111111111111111111111111111111",
  "Stake11111111111111111111111111111111111111",
  "Config1111111111111111111111111111111111111",
  "BPFLoader2111111111111111111111111111111111",
  "BPFLoaderUpgradeab1e11111111111111111111111",
]);

/**
 * What the compute-budget instructions ask for: the unit limit (defaults per instruction) and price (micro-lamports).
 */
export function computeBudget(tx: Pick<DecodedTx, "staticKeys" | "instructions">): { limit: bigint; price: bigint } {
  let limit: bigint | null = null;
  let price = 0n;
  let defaultLimit = 0n;
  for (const ix of tx.instructions) {
    const program = tx.staticKeys[ix.programIdIndex];
    if (program === COMPUTE_BUDGET_PROGRAM && ix.data[0] === 2 && ix.data.length >= 5)
      limit = BigInt(readU32(ix.data, 1));
    if (program === COMPUTE_BUDGET_PROGRAM && ix.data[0] === 3 && ix.data.length >= 9) price = readU64(ix.data, 1);
    defaultLimit += BUILTINS.has(program ?? "") ? 3_000n : 200_000n;
  }
  const units = limit ?? defaultLimit;
  return { limit: units > 1_400_000n ? 1_400_000n : units, price };
}

/** 5,000 lamports per signature plus the priority fee (compute unit price × limit, rounded up). */
export function computeFee(tx: Pick<DecodedTx, "signatures" | "staticKeys" | "instructions">): bigint {
  const { limit, price } = computeBudget(tx);
  return LAMPORTS_PER_SIGNATURE * BigInt(tx.signatures.length) + (price * limit + 999_999n) / 1_000_000n;
}
