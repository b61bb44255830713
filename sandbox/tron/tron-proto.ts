import { createHash } from "node:crypto";
import { utils as tronUtils } from "tronweb";
import { formatAddress, toTronHex } from "./address";
import type { TronTxJson } from "./tx-index";

/**
 * Transactions are serialized with TronWeb's own protobuf helpers (txJsonToPb, txPbToTxID, …), the same code
 * TronWeb runs for `txLocal: true` and in its txCheck, so what the facade builds always passes TronWeb's checks.
 */
export const STAKE_CONTRACTS = [
  "FreezeBalanceV2Contract",
  "UnfreezeBalanceV2Contract",
  "DelegateResourceContract",
  "UnDelegateResourceContract",
  "WithdrawExpireUnfreezeContract",
] as const;
export type StakeContractType = (typeof STAKE_CONTRACTS)[number];
export type ContractType = "TriggerSmartContract" | "TransferContract" | StakeContractType;
export const SUPPORTED: ContractType[] = ["TriggerSmartContract", "TransferContract", ...STAKE_CONTRACTS];
export const isStakeContract = (type: ContractType): type is StakeContractType =>
  (STAKE_CONTRACTS as readonly string[]).includes(type);

export interface RawHeader {
  ref_block_bytes: string;
  ref_block_hash: string;
  expiration: number;
  timestamp: number;
  fee_limit?: number;
  data?: string;
}

/** Builds an unsigned transaction (hex addresses in `value`) with its raw_data_hex and txID. */
export function buildTx(
  type: ContractType,
  value: Record<string, unknown>,
  header: RawHeader,
  permissionId?: number,
): TronTxJson {
  const raw_data: TronTxJson["raw_data"] = {
    contract: [
      {
        parameter: { value, type_url: `type.googleapis.com/protocol.${type}` },
        type,
        ...(permissionId ? { Permission_id: permissionId } : {}),
      },
    ],
    ref_block_bytes: header.ref_block_bytes,
    ref_block_hash: header.ref_block_hash,
    expiration: header.expiration,
    ...(header.fee_limit ? { fee_limit: header.fee_limit } : {}),
    timestamp: header.timestamp,
    ...(header.data ? { data: header.data } : {}),
  };
  const pb = tronUtils.transaction.txJsonToPb({ raw_data, visible: false });
  return {
    txID: tronUtils.transaction.txPbToTxID(pb).replace(/^0x/, ""),
    raw_data,
    raw_data_hex: tronUtils.transaction.txPbToRawDataHex(pb).toLowerCase(),
  };
}

/** raw_data_hex of a transaction given as JSON (what java-tron would serialize from it). */
export function rawHexOfJson(raw_data: unknown): string {
  return tronUtils.transaction
    .txPbToRawDataHex(tronUtils.transaction.txJsonToPb({ raw_data, visible: false }))
    .toLowerCase();
}

export const sha256Hex = (rawHex: string): string =>
  createHash("sha256").update(Buffer.from(rawHex, "hex")).digest("hex");

/** Decodes signed raw_data bytes into canonical JSON (java-tron style: default-valued fields left out). */
export function decodeRawData(rawHex: string): TronTxJson["raw_data"] | null {
  for (const type of SUPPORTED) {
    let d;
    try {
      d = tronUtils.deserializeTx.deserializeTransaction(type, rawHex);
    } catch {
      continue;
    }
    const c = d.contract[0];
    const v = c.parameter.value;
    const value = contractValue(type, v);
    return {
      contract: [
        {
          parameter: { value, type_url: c.parameter.type_url },
          type,
          ...(c.Permission_id ? { Permission_id: c.Permission_id } : {}),
        },
      ],
      ref_block_bytes: lower(d.ref_block_bytes),
      ref_block_hash: lower(d.ref_block_hash),
      expiration: Number(d.expiration),
      ...nonZero({ fee_limit: d.fee_limit }),
      timestamp: Number(d.timestamp),
      ...(d.data ? { data: lower(d.data) } : {}),
    };
  }
  return null;
}

/** A decoded contract's value in the JSON java-tron answers (hex addresses; `resource` kept explicit for TronWeb). */
function contractValue(type: ContractType, v: Record<string, unknown>): Record<string, unknown> {
  const owner_address = lower(v.owner_address);
  switch (type) {
    case "TransferContract":
      return { amount: Number(v.amount), owner_address, to_address: lower(v.to_address) };
    case "TriggerSmartContract":
      return {
        data: lower(v.data),
        owner_address,
        contract_address: lower(v.contract_address),
        ...nonZero({ call_value: v.call_value, call_token_value: v.call_token_value, token_id: v.token_id }),
      };
    case "FreezeBalanceV2Contract":
      return { owner_address, frozen_balance: Number(v.frozen_balance), resource: v.resource };
    case "UnfreezeBalanceV2Contract":
      return { owner_address, unfreeze_balance: Number(v.unfreeze_balance), resource: v.resource };
    case "DelegateResourceContract":
      return {
        owner_address,
        receiver_address: lower(v.receiver_address),
        balance: Number(v.balance),
        resource: v.resource,
        ...(v.lock ? { lock: true } : {}),
        ...nonZero({ lock_period: v.lock_period }),
      };
    case "UnDelegateResourceContract":
      return {
        owner_address,
        receiver_address: lower(v.receiver_address),
        balance: Number(v.balance),
        resource: v.resource,
      };
    case "WithdrawExpireUnfreezeContract":
      return { owner_address };
  }
}

/** The Transaction protobuf (broadcasthex) → raw_data hex and signatures. */
export function decodeSignedHex(txHex: string): { rawHex: string; signature: string[] } {
  const { Transaction } = (globalThis as any).TronWebProto;
  const tx = Transaction.deserializeBinary(Uint8Array.from(Buffer.from(txHex.replace(/^0x/, ""), "hex")));
  return {
    rawHex: Buffer.from(tx.getRawData().serializeBinary()).toString("hex"),
    signature: tx.getSignatureList_asU8().map((s: Uint8Array) => Buffer.from(s).toString("hex")),
  };
}

/** Addresses in a contract value, converted to what the request asked for (`visible`). */
export function formatTx<T extends TronTxJson>(tx: T, visible: boolean): T & { visible: boolean } {
  const contract = tx.raw_data.contract.map((c) => {
    const value = { ...c.parameter.value };
    for (const k of ["owner_address", "to_address", "contract_address", "origin_address", "receiver_address"])
      if (typeof value[k] === "string") value[k] = formatAddress(value[k] as string, visible);
    return { ...c, parameter: { ...c.parameter, value } };
  });
  return { ...tx, visible, raw_data: { ...tx.raw_data, contract } };
}

/** Addresses from a request body may come as T…, 41… or 0x…. */
export const hexAddress = (a: unknown, field: string): string => {
  if (typeof a !== "string" || !a) throw new Error(`${field} is required`);
  return toTronHex(a);
};

const lower = (s: unknown): string => String(s ?? "").toLowerCase();
function nonZero(o: Record<string, unknown>): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [k, v] of Object.entries(o)) if (v !== undefined && v !== null && Number(v) !== 0) out[k] = Number(v);
  return out;
}
