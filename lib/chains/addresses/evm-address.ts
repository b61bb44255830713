import { keccak_256 } from "@noble/hashes/sha3.js";

// EVM addresses without viem, whose entry takes most of a second to load: the CLI checks and derives
// addresses on every command.
const HEX_ADDRESS = /^0x[0-9a-fA-F]{40}$/;
const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString("hex");

/** EIP-55: each hex letter upper-cased where the keccak-256 of the lower-case address has a nibble ≥ 8. */
export function checksumAddress(address: string): string {
  const lower = address.slice(2).toLowerCase();
  const hash = hex(keccak_256(new TextEncoder().encode(lower)));
  let out = "0x";
  for (let i = 0; i < 40; i++) out += Number.parseInt(hash[i]!, 16) >= 8 ? lower[i]!.toUpperCase() : lower[i]!;
  return out;
}

/**
 * 0x + 40 hex digits; when the letters are not all lower case,
 * they must carry the EIP-55 checksum (viem's strict isAddress).
 */
export function isChecksummedOrLowerAddress(address: string): boolean {
  if (!HEX_ADDRESS.test(address)) return false;
  return address.toLowerCase() === address || checksumAddress(address) === address;
}

/** The checksummed address of an uncompressed (65-byte, 0x04-prefixed) secp256k1 public key. */
export function addressOfUncompressedKey(publicKey: Uint8Array): string {
  return checksumAddress(`0x${hex(keccak_256(publicKey.subarray(1)).subarray(-20))}`);
}
