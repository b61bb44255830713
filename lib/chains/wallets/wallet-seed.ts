import fs from "node:fs";
import { generateMnemonic, validateMnemonic } from "@scure/bip39";
import { wordlist } from "@scure/bip39/wordlists/english.js";
import { type AppConfig, config } from "@/lib/platform/config/env";
import type { Db } from "@/lib/platform/db/client";
import { query } from "@/lib/platform/db/query";
import type { Mode } from "@/lib/kernel/mode";
import { mnemonicSeed } from "./bip39-seed";
import { decryptSecret, encryptSecret } from "@/lib/platform/secrets/encryption";
import { masterKey } from "@/lib/platform/secrets/master-key";

const PURPOSE = "wallet-seed:sandbox";
const registry = globalThis as unknown as { __usdtSeeds?: Map<Mode, Uint8Array> };
/** The live seed per loaded configuration: a configuration reloaded with another mnemonic derives from it. */
const liveSeeds = new WeakMap<AppConfig, Uint8Array>();

/**
 * The operator's live mnemonic: LIVE_SEED_MNEMONIC, or the file named by LIVE_SEED_FILE. It is never
 * written to the database or logs. Returns null when not configured (live chains are then disabled).
 */
export function liveMnemonic(cfg: AppConfig = config()): string | null {
  const raw = cfg.liveSeedMnemonic || (cfg.liveSeedFile ? fs.readFileSync(cfg.liveSeedFile, "utf8") : "");
  const mnemonic = raw.trim().split(/\s+/).join(" ");
  if (!mnemonic) return null;
  if (!validateMnemonic(mnemonic, wordlist))
    throw new Error("the live seed (LIVE_SEED_MNEMONIC / LIVE_SEED_FILE) is not a valid BIP-39 English mnemonic");
  return mnemonic;
}

/**
 * The BIP-39 seed a mode derives deposit addresses from. Sandbox: a 24-word mnemonic generated on first
 * use and stored encrypted (AES-256-GCM under the master key); concurrent first uses agree on one.
 */
export async function walletSeed(db: Db, mode: Mode): Promise<Uint8Array> {
  if (mode === "live") {
    const cfg = config();
    const known = liveSeeds.get(cfg);
    if (known) return known;
    const live = liveMnemonic(cfg);
    if (!live) throw new Error("no live wallet seed configured (LIVE_SEED_MNEMONIC or LIVE_SEED_FILE)");
    const seed = mnemonicSeed(live);
    liveSeeds.set(cfg, seed);
    return seed;
  }
  const cache = (registry.__usdtSeeds ??= new Map());
  const cached = cache.get(mode);
  if (cached) return cached;
  const sealed = encryptSecret(masterKey(), Buffer.from(generateMnemonic(wordlist, 256)), PURPOSE);
  await query(
    db,
    "insert into wallet_seeds (mode, encrypted_mnemonic) values ('sandbox', $1) on conflict (mode) do nothing",
    [sealed],
  );
  const [row] = await query<{ encrypted_mnemonic: string }>(
    db,
    "select encrypted_mnemonic from wallet_seeds where mode = 'sandbox'",
  );
  const mnemonic = decryptSecret(masterKey(), row!.encrypted_mnemonic, PURPOSE).toString("utf8");
  const seed = mnemonicSeed(mnemonic);
  cache.set(mode, seed);
  return seed;
}
