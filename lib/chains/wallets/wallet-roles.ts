import { HDKey } from "@scure/bip32";
import { base58 } from "@scure/base";
import HDKeyEd25519 from "micro-key-producer/slip10.js";
import type { ChainFamily } from "@/lib/chains/chains";
import { addressOfSecp256k1Key } from "./derive-address";

/**
 * The service's own signers, one of each per mode and chain:
 * - treasury: receives sweeps and pays payouts;
 * - sweeper: pays the gas of sweeps and tops deposit addresses up, on a nonce sequence of its own, so a
 *   sweep stuck at a low fee never holds up a payout.
 */
export const WALLET_ROLES = ["treasury", "sweeper"] as const;
export type WalletRole = (typeof WALLET_ROLES)[number];

/**
 * Derivation paths (docs/CUSTODY.md). Deposit addresses use account 0' (EVM, Tron: m/44'/c'/0'/0/i) or a
 * path ending in /0' (Solana: m/44'/501'/i'/0'); the roles use other hardened branches, so no deposit index
 * ever reaches them, and the web process's account-0' xpub reveals nothing about them.
 */
export const ROLE_PATH: Record<ChainFamily, Record<WalletRole, string>> = {
  evm: { treasury: "m/44'/60'/1'/0/0", sweeper: "m/44'/60'/2'/0/0" },
  tron: { treasury: "m/44'/195'/1'/0/0", sweeper: "m/44'/195'/2'/0/0" },
  solana: { treasury: "m/44'/501'/0'/1'", sweeper: "m/44'/501'/0'/2'" },
};

export interface SigningKey {
  address: string;
  /** secp256k1: the 32-byte private key; ed25519 (Solana): the 32-byte seed of the key pair. */
  privateKey: Uint8Array;
}

/** The key at `path` of a BIP-39 seed, with the family's address form. */
export function deriveSigningKey(seed: Uint8Array, family: ChainFamily, path: string): SigningKey {
  if (family === "solana") {
    const key = HDKeyEd25519.fromMasterSeed(seed).derive(path);
    return { address: base58.encode(key.publicKeyRaw), privateKey: key.privateKey };
  }
  const node = HDKey.fromMasterSeed(seed).derive(path);
  return { address: addressOfSecp256k1Key(family, node.publicKey!), privateKey: node.privateKey! };
}

/** A role's key derived from the mode's seed. */
export function deriveRoleKey(seed: Uint8Array, family: ChainFamily, role: WalletRole): SigningKey {
  return deriveSigningKey(seed, family, ROLE_PATH[family][role]);
}
