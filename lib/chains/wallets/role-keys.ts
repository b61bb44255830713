import fs from "node:fs";
import { ed25519 } from "@noble/curves/ed25519.js";
import { secp256k1 } from "@noble/curves/secp256k1.js";
import { base58, hex } from "@scure/base";
import { CHAIN_FAMILY, type Chain, type ChainFamily } from "@/lib/chains/chains";
import { type AppConfig, config } from "@/lib/platform/config/env";
import type { Db } from "@/lib/platform/db/client";
import type { Mode } from "@/lib/kernel/mode";
import { addressOfSecp256k1Key, DERIVATION_PATH } from "./derive-address";
import { walletSeed } from "./wallet-seed";
import { deriveRoleKey, deriveSigningKey, ROLE_PATH, type SigningKey, type WalletRole } from "./wallet-roles";

export interface RoleKey extends SigningKey {
  role: WalletRole;
  /** The derivation path, or null for a key from a role key file. */
  path: string | null;
}

const KEY_FILE: Record<WalletRole, (cfg: AppConfig) => string | undefined> = {
  treasury: (cfg) => cfg.liveTreasuryKeyFile,
  sweeper: (cfg) => cfg.liveSweeperKeyFile,
};

/**
 * A role key file: JSON `{"evm": "<64 hex>", "tron": "<64 hex>", "solana": "<64 hex seed | base58 secret key>"}`;
 * a family it does not list derives from the live seed. The file is read where the worker signs, never logged.
 */
function keyFromFile(file: string, family: ChainFamily, variable: string): SigningKey | null {
  let parsed: Partial<Record<ChainFamily, unknown>>;
  try {
    parsed = JSON.parse(fs.readFileSync(file, "utf8")) as Partial<Record<ChainFamily, unknown>>;
  } catch {
    throw new Error(`${variable} must name a readable JSON file of keys per family (docs/CUSTODY.md)`);
  }
  const raw = parsed[family];
  if (raw === undefined) return null;
  const text = typeof raw === "string" ? raw.trim().replace(/^0x/, "") : "";
  const problem =
    `${variable}: the "${family}" key must be 32 bytes as 64 hex digits` +
    `${family === "solana" ? " or a base58 64-byte secret key" : ""}`;
  let privateKey: Uint8Array;
  if (/^[0-9a-fA-F]{64}$/.test(text)) privateKey = hex.decode(text.toLowerCase());
  else if (family === "solana" && text.length > 80) {
    const secret = (() => {
      try {
        return base58.decode(text);
      } catch {
        throw new Error(problem);
      }
    })();
    if (secret.length !== 64) throw new Error(problem);
    privateKey = secret.slice(0, 32);
  } else throw new Error(problem);
  if (family === "solana") return { address: base58.encode(ed25519.getPublicKey(privateKey)), privateKey };
  if (!secp256k1.utils.isValidSecretKey(privateKey)) throw new Error(problem);
  return { address: addressOfSecp256k1Key(family, secp256k1.getPublicKey(privateKey, true)), privateKey };
}

/**
 * The key of a role on a chain in a mode (docs/CUSTODY.md, "Roles"): sandbox, from the sandbox seed; live,
 * from the role's key file (LIVE_TREASURY_KEY_FILE / LIVE_SWEEPER_KEY_FILE) or else the live seed. Only the
 * signing process (the worker) calls this.
 */
export async function roleKey(db: Db, mode: Mode, chain: Chain, role: WalletRole): Promise<RoleKey> {
  const family = CHAIN_FAMILY[chain];
  const cfg = config();
  const file = mode === "live" ? KEY_FILE[role](cfg) : undefined;
  if (file) {
    const key = keyFromFile(file, family, role === "treasury" ? "LIVE_TREASURY_KEY_FILE" : "LIVE_SWEEPER_KEY_FILE");
    if (key) return { ...key, role, path: null };
  }
  const seed = await walletSeed(db, mode);
  return { ...deriveRoleKey(seed, family, role), role, path: ROLE_PATH[family][role] };
}

/** A deposit address's key, by its derivation index (sweeps sign with it). */
export async function depositKey(db: Db, mode: Mode, chain: Chain, index: number): Promise<SigningKey> {
  const family = CHAIN_FAMILY[chain];
  return deriveSigningKey(await walletSeed(db, mode), family, DERIVATION_PATH[family](index));
}
