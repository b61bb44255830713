import { base58 } from "@scure/base";

/** Byte and JSON helpers shared by the facade. */

export const toBase58 = (bytes: Uint8Array): string => base58.encode(bytes);
export const fromBase58 = (text: string): Uint8Array => base58.decode(text);
export const toBase64 = (bytes: Uint8Array): string =>
  Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("base64");
export const fromBase64 = (text: string): Uint8Array => new Uint8Array(Buffer.from(text, "base64"));

export const U64_MAX = (1n << 64n) - 1n;

export function readU64(data: Uint8Array, offset: number): bigint {
  return new DataView(data.buffer, data.byteOffset, data.byteLength).getBigUint64(offset, true);
}

export function readU32(data: Uint8Array, offset: number): number {
  return new DataView(data.buffer, data.byteOffset, data.byteLength).getUint32(offset, true);
}

// A per-process random marker, so no string a program logs can be mistaken for a bigint placeholder.
const BIGINT_TAG = `bigint${Math.random().toString(36).slice(2, 10)}`;
const BIGINT_PATTERN = new RegExp(`"\\\\u0000${BIGINT_TAG}:(-?\\d+)"`, "g");

/**
 * JSON.stringify that writes bigints as bare JSON numbers: a real node sends u64 values (lamports,
 * rentEpoch = u64::MAX) as numbers, and kit parses them back into bigints without losing precision.
 */
export function stringifyJson(value: unknown): string {
  const text = JSON.stringify(value, (_key, v) => (typeof v === "bigint" ? `\u0000${BIGINT_TAG}:${v}` : v));
  return text.replace(BIGINT_PATTERN, "$1");
}

/**
 * JSON.parse that keeps integers too large for a double: kit sends u64 params (lamports) as bare
 * numbers, so integer literals of 16+ digits outside strings are quoted first and read as bigints later.
 */
export function parseJsonKeepingBigInts(text: string): unknown {
  let out = "";
  let inString = false;
  let i = 0;
  while (i < text.length) {
    const ch = text[i]!;
    if (inString) {
      out += ch;
      if (ch === "\\") out += text[++i] ?? "";
      else if (ch === '"') inString = false;
      i++;
      continue;
    }
    if (ch === '"') inString = true;
    const match = /^-?\d{16,}(?![.eE\d])/.exec(text.slice(i, i + 40));
    if (match && !/[\d.eE+-]/.test(text[i - 1] ?? "")) {
      out += `"${match[0]}"`;
      i += match[0].length;
      continue;
    }
    out += ch;
    i++;
  }
  return JSON.parse(out);
}

/** Formats a raw token amount the way the node's `uiAmountString` does: trailing zeros trimmed. */
export function formatUiAmount(amount: bigint, decimals: number): string {
  if (decimals === 0) return amount.toString();
  const text = amount.toString().padStart(decimals + 1, "0");
  const whole = text.slice(0, -decimals);
  const frac = text.slice(-decimals).replace(/0+$/, "");
  return frac ? `${whole}.${frac}` : whole;
}

export function uiTokenAmount(amount: bigint, decimals: number) {
  const uiAmountString = formatUiAmount(amount, decimals);
  return { amount: amount.toString(), decimals, uiAmount: Number(uiAmountString), uiAmountString };
}
