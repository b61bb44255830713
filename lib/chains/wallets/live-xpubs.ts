import { type AppConfig, config } from "@/lib/platform/config/env";
import { mnemonicSeed } from "./bip39-seed";
import { accountXpub, type XpubFamily } from "./derive-address";
import { liveMnemonic } from "./wallet-seed";

export type LiveXpubs = Record<XpubFamily, string>;

/** The account-level xpubs of the live seed (`npm run cli -- wallets xpub`); null when no live seed is configured. */
export function liveXpubsOfSeed(cfg: AppConfig = config()): LiveXpubs | null {
  const mnemonic = liveMnemonic(cfg);
  if (!mnemonic) return null;
  const seed = mnemonicSeed(mnemonic);
  return { evm: accountXpub(seed, "evm"), tron: accountXpub(seed, "tron") };
}

const VARIABLE: Record<XpubFamily, string> = { evm: "LIVE_EVM_XPUB", tron: "LIVE_TRON_XPUB" };

/**
 * What is wrong with the configured LIVE_EVM_XPUB / LIVE_TRON_XPUB for the process holding the live seed:
 * an xpub that is not the seed's would have the web hand payers addresses whose keys nobody holds. Empty when
 * they match, are unset, or there is no seed here to compare with.
 */
export function liveXpubMismatches(cfg: AppConfig = config()): string[] {
  const ofSeed = liveXpubsOfSeed(cfg);
  if (!ofSeed) return [];
  return (Object.keys(VARIABLE) as XpubFamily[])
    .filter((family) => cfg.liveXpubs[family] !== undefined && cfg.liveXpubs[family] !== ofSeed[family])
    .map(
      (family) =>
        `${VARIABLE[family]} is not the extended public key of the live seed (LIVE_SEED_MNEMONIC / LIVE_SEED_FILE): ` +
        "addresses derived from it would not be this wallet's. " +
        "Set it to what `npm run --silent cli -- wallets xpub` prints.",
    );
}
