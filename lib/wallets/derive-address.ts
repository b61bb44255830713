import { secp256k1 } from "@noble/curves/secp256k1.js";
import { HDKey } from "@scure/bip32";
import { base58 } from "@scure/base";
import HDKeyEd25519 from "micro-key-producer/slip10.js";
import { TronWeb } from "tronweb";
import { publicKeyToAddress } from "viem/accounts";
import { bytesToHex } from "viem";
import type { ChainFamily } from "@/lib/chains/chains";

/**
 * Deposit address derivation, one scheme per chain family (BIP-44 paths as wallets use them):
 * - evm    m/44'/60'/0'/0/i   secp256k1 (BIP-32), EIP-55 checksummed address
 * - tron   m/44'/195'/0'/0/i  secp256k1 (BIP-32), base58check T-address
 * - solana m/44'/501'/i'/0'   ed25519 (SLIP-0010, hardened only), base58 public key
 */
export const DERIVATION_PATH: Record<ChainFamily, (index: number) => string> = {
  evm: (i) => `m/44'/60'/0'/0/${i}`,
  tron: (i) => `m/44'/195'/0'/0/${i}`,
  solana: (i) => `m/44'/501'/${i}'/0'`,
};

export interface DerivedAddress {
  address: string;
  path: string;
}

// The nodes above the index are derived once per seed; each payment then costs one or two child steps.
const parentNodes = new WeakMap<Uint8Array, Map<string, HDKey | HDKeyEd25519>>();

function parentNode<T extends HDKey | HDKeyEd25519>(seed: Uint8Array, path: string, make: () => T): T {
  let bySeed = parentNodes.get(seed);
  if (!bySeed) parentNodes.set(seed, (bySeed = new Map()));
  let node = bySeed.get(path) as T | undefined;
  if (!node) bySeed.set(path, (node = make()));
  return node;
}

const HARDENED = 0x80000000;

export function deriveAddress(seed: Uint8Array, family: ChainFamily, index: number): DerivedAddress {
  if (!Number.isSafeInteger(index) || index < 0 || index >= 2 ** 31)
    throw new Error(`derivation index out of range: ${index}`);
  const path = DERIVATION_PATH[family](index);
  if (family === "solana") {
    const coin = parentNode(seed, "ed25519:m/44'/501'", () => HDKeyEd25519.fromMasterSeed(seed).derive("m/44'/501'"));
    const key = coin.deriveChild(HARDENED + index).deriveChild(HARDENED);
    return { address: base58.encode(key.publicKeyRaw), path };
  }
  const accountPath = family === "evm" ? "m/44'/60'/0'/0" : "m/44'/195'/0'/0";
  const child = parentNode(seed, accountPath, () => HDKey.fromMasterSeed(seed).derive(accountPath)).deriveChild(index);
  const uncompressed = secp256k1.Point.fromBytes(child.publicKey!).toBytes(false);
  const evmAddress = publicKeyToAddress(bytesToHex(uncompressed));
  // A Tron address is the same 20-byte key hash with the 0x41 prefix, in base58check.
  return { address: family === "evm" ? evmAddress : TronWeb.address.fromHex(`41${evmAddress.slice(2)}`), path };
}
