import { createHash } from "node:crypto";
import { createBase58check } from "@scure/base";

/** Tron's base58check (double SHA-256, 4 checksum bytes) without TronWeb, which takes about a second to load. */
const base58check = createBase58check((data: Uint8Array) => new Uint8Array(createHash("sha256").update(data).digest()));
const TRON_PREFIX = 0x41;

/** The 21 bytes (0x41 ‖ account) of a T-address, or null when it is not one (checksum, length, prefix). */
function tronBytes(address: string): Uint8Array | null {
  if (!/^T[1-9A-HJ-NP-Za-km-z]{33}$/.test(address)) return null;
  try {
    const bytes = base58check.decode(address);
    return bytes.length === 21 && bytes[0] === TRON_PREFIX ? bytes : null;
  } catch {
    return null;
  }
}

export const isTronAddress = (address: string): boolean => tronBytes(address) !== null;

/**
 * T-address (or its hex form, 41… or 0x…, as TronWeb takes it) → the 0x-prefixed 20-byte form Tron's /jsonrpc speaks.
 */
export function tronToEvmHex(address: string): string {
  if (/^(41|0x)[0-9a-fA-F]{40}$/.test(address)) return `0x${address.slice(2).toLowerCase()}`;
  const bytes = tronBytes(address);
  if (!bytes) throw new Error(`not a Tron address: ${address}`);
  return `0x${Buffer.from(bytes.subarray(1)).toString("hex")}`;
}

/** The 20-byte account as 0x-hex → its T-address. */
export function evmHexToTron(hex: string): string {
  const bytes = Buffer.from(hex.replace(/^0x/, "").padStart(40, "0"), "hex");
  return base58check.encode(Uint8Array.from([TRON_PREFIX, ...bytes]));
}
