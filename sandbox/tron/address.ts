import { createHash } from "node:crypto";
import { createBase58check, hex } from "@scure/base";

/** Tron addresses: base58check(0x41 ‖ 20 bytes); the 20 bytes are the EVM address of the same key. */
const b58 = createBase58check((data: Uint8Array) => new Uint8Array(createHash("sha256").update(data).digest()));

/** Accepts T…, 41… (42 hex) or 0x… (40 hex) and returns "41" + 40 lowercase hex. */
export function toTronHex(address: string): string {
  const a = address.trim();
  if (/^T[1-9A-HJ-NP-Za-km-z]{33}$/.test(a)) {
    const bytes = b58.decode(a);
    if (bytes.length !== 21 || bytes[0] !== 0x41) throw new Error(`not a Tron address: ${address}`);
    return hex.encode(bytes);
  }
  const h = a.replace(/^0x/i, "").toLowerCase();
  if (/^41[0-9a-f]{40}$/.test(h)) return h;
  if (/^[0-9a-f]{40}$/.test(h)) return `41${h}`;
  throw new Error(`invalid address: ${address}`);
}

export const toBase58 = (address: string): string => b58.encode(hex.decode(toTronHex(address)));
export const toEvm = (address: string): `0x${string}` => `0x${toTronHex(address).slice(2)}`;
/** java-tron answers in the address format the request asked for (`visible`). */
export const formatAddress = (address: string, visible: boolean): string =>
  visible ? toBase58(address) : toTronHex(address);
