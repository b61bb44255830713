import { secp256k1 } from "@noble/curves/secp256k1.js";
import { HDKey } from "@scure/bip32";
import { base58 } from "@scure/base";
import HDKeyEd25519 from "micro-key-producer/slip10.js";
import type { ChainFamily } from "@/lib/chains/chains";
import { addressOfUncompressedKey } from "@/lib/chains/addresses/evm-address";
import { evmHexToTron } from "@/lib/chains/addresses/tron-address";

/**
 * Deposit address derivation, one scheme per chain family (BIP-44 paths as wallets use them):
 * - evm    m/44'/60'/0'/0/i   secp256k1 (BIP-32), EIP-55 checksummed address
 * - tron   m/44'/195'/0'/0/i  secp256k1 (BIP-32), base58check T-address
 * - solana m/44'/501'/i'/0'   ed25519 (SLIP-0010, hardened only), base58 public key
 * The last step of evm and tron is not hardened, so their addresses also derive from the extended public
 * key at the account path (deriveAddressFromXpub): a process that only hands out addresses needs no seed.
 */
export const DERIVATION_PATH: Record<ChainFamily, (index: number) => string> = {
  evm: (i) => `m/44'/60'/0'/0/${i}`,
  tron: (i) => `m/44'/195'/0'/0/${i}`,
  solana: (i) => `m/44'/501'/${i}'/0'`,
};

/** The families whose addresses derive from an extended public key, and the path of that key. */
export type XpubFamily = Exclude<ChainFamily, "solana">;
export const ACCOUNT_PATH: Record<XpubFamily, string> = { evm: "m/44'/60'/0'/0", tron: "m/44'/195'/0'/0" };

export interface DerivedAddress {
  address: string;
  path: string;
}

// The nodes above the index are derived once per seed; each payment then costs one or two child steps.
const parentNodes = new WeakMap<Uint8Array, Map<string, HDKey | HDKeyEd25519>>();
const xpubNodes = new Map<string, HDKey>();

function parentNode<T extends HDKey | HDKeyEd25519>(seed: Uint8Array, path: string, make: () => T): T {
  let bySeed = parentNodes.get(seed);
  if (!bySeed) parentNodes.set(seed, (bySeed = new Map()));
  let node = bySeed.get(path) as T | undefined;
  if (!node) bySeed.set(path, (node = make()));
  return node;
}

const HARDENED = 0x80000000;

function checkIndex(index: number): void {
  if (!Number.isSafeInteger(index) || index < 0 || index >= 2 ** 31)
    throw new Error(`derivation index out of range: ${index}`);
}

/** The family's address of a compressed secp256k1 public key. */
export function addressOfSecp256k1Key(family: XpubFamily, publicKey: Uint8Array): string {
  const uncompressed = secp256k1.Point.fromBytes(publicKey).toBytes(false);
  const evmAddress = addressOfUncompressedKey(uncompressed);
  // A Tron address is the same 20-byte key hash with the 0x41 prefix, in base58check.
  return family === "evm" ? evmAddress : evmHexToTron(evmAddress);
}

export function deriveAddress(seed: Uint8Array, family: ChainFamily, index: number): DerivedAddress {
  checkIndex(index);
  const path = DERIVATION_PATH[family](index);
  if (family === "solana") {
    const coin = parentNode(seed, "ed25519:m/44'/501'", () => HDKeyEd25519.fromMasterSeed(seed).derive("m/44'/501'"));
    const key = coin.deriveChild(HARDENED + index).deriveChild(HARDENED);
    return { address: base58.encode(key.publicKeyRaw), path };
  }
  const account = parentNode(seed, ACCOUNT_PATH[family], () => HDKey.fromMasterSeed(seed).derive(ACCOUNT_PATH[family]));
  return { address: addressOfSecp256k1Key(family, account.deriveChild(index).publicKey!), path };
}

/** The account-level extended public key (xpub…) of a family: what the web process is given instead of the seed. */
export function accountXpub(seed: Uint8Array, family: XpubFamily): string {
  return HDKey.fromMasterSeed(seed).derive(ACCOUNT_PATH[family]).publicExtendedKey;
}

/** The same address deriveAddress gives, from the family's account-level xpub (accountXpub). */
export function deriveAddressFromXpub(xpub: string, family: XpubFamily, index: number): DerivedAddress {
  checkIndex(index);
  let account = xpubNodes.get(xpub);
  if (!account) xpubNodes.set(xpub, (account = HDKey.fromExtendedKey(xpub)));
  return {
    address: addressOfSecp256k1Key(family, account.deriveChild(index).publicKey!),
    path: DERIVATION_PATH[family](index),
  };
}
