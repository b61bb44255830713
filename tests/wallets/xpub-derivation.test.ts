import { HDKey } from "@scure/bip32";
import { generateMnemonic, mnemonicToSeedSync } from "@scure/bip39";
import { wordlist } from "@scure/bip39/wordlists/english.js";
import { describe, expect, it } from "vitest";
import { loadConfig } from "@/lib/platform/config/env";
import { accountXpub, deriveAddress, deriveAddressFromXpub } from "@/lib/chains/wallets/derive-address";
import { liveXpubMismatches } from "@/lib/chains/wallets/live-xpubs";
import { runCli } from "../helpers/run-cli";

const HARDHAT = "test test test test test test test test test test test junk";

describe("live EVM and Tron addresses from the account xpub (the web process holds no seed)", () => {
  it("give exactly the seed's addresses, for many indexes and seeds", () => {
    for (const mnemonic of [HARDHAT, generateMnemonic(wordlist, 256), generateMnemonic(wordlist, 128)]) {
      const seed = mnemonicToSeedSync(mnemonic);
      const indexes = [...Array.from({ length: 300 }, (_, i) => i), 4_096, 1_000_003, 2 ** 31 - 1];
      for (const family of ["evm", "tron"] as const) {
        const xpub = accountXpub(seed, family);
        for (const index of indexes) {
          expect(deriveAddressFromXpub(xpub, family, index)).toEqual(deriveAddress(seed, family, index));
        }
      }
    }
    // And the known vector, so both cannot be wrong together.
    const xpub = accountXpub(mnemonicToSeedSync(HARDHAT), "evm");
    expect(deriveAddressFromXpub(xpub, "evm", 0).address).toBe("0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266");
  });

  it("the xpub carries no private key, and each family has its own", () => {
    const seed = mnemonicToSeedSync(HARDHAT);
    const evm = accountXpub(seed, "evm");
    expect(evm).toMatch(/^xpub/);
    expect(HDKey.fromExtendedKey(evm).privateKey).toBeNull();
    expect(accountXpub(seed, "tron")).not.toBe(evm);
  });

  it(
    "LIVE_EVM_XPUB / LIVE_TRON_XPUB accept only account-level extended public keys, " + "never echoing a private one",
    () => {
      const seed = mnemonicToSeedSync(HARDHAT);
      const xprv = HDKey.fromMasterSeed(seed).derive("m/44'/60'/0'/0").privateExtendedKey;
      const master = HDKey.fromMasterSeed(seed).publicExtendedKey;
      expect(() => loadConfig({ LIVE_EVM_XPUB: xprv })).toThrow(
        /LIVE_EVM_XPUB must be an account-level extended public key/,
      );
      expect(() => loadConfig({ LIVE_EVM_XPUB: xprv })).not.toThrow(new RegExp(xprv));
      expect(() => loadConfig({ LIVE_TRON_XPUB: master })).toThrow(/LIVE_TRON_XPUB must be/);
      expect(() => loadConfig({ LIVE_TRON_XPUB: "xpubnonsense" })).toThrow(/LIVE_TRON_XPUB must be/);
      const ok = loadConfig({ LIVE_EVM_XPUB: accountXpub(seed, "evm"), LIVE_TRON_XPUB: accountXpub(seed, "tron") });
      expect(ok.liveXpubs).toEqual({ evm: accountXpub(seed, "evm"), tron: accountXpub(seed, "tron") });
    },
  );

  it("the seed holder sees xpubs that are not its seed's", () => {
    const seed = mnemonicToSeedSync(HARDHAT);
    const other = mnemonicToSeedSync(generateMnemonic(wordlist, 256));
    const env = { LIVE_SEED_MNEMONIC: HARDHAT, LIVE_EVM_XPUB: accountXpub(seed, "evm") };
    expect(liveXpubMismatches(loadConfig({ ...env, LIVE_TRON_XPUB: accountXpub(seed, "tron") }))).toEqual([]);
    expect(liveXpubMismatches(loadConfig({ ...env, LIVE_TRON_XPUB: accountXpub(other, "tron") }))).toEqual([
      expect.stringMatching(/^LIVE_TRON_XPUB is not the extended public key of the live seed/),
    ]);
    // The EVM xpub given for Tron is wrong too.
    expect(liveXpubMismatches(loadConfig({ ...env, LIVE_TRON_XPUB: accountXpub(seed, "evm") }))).toHaveLength(1);
  });
});

describe("npm run cli -- wallets xpub", () => {
  it("prints the seed's xpubs where the seed is, with no database, ready for the web's environment", async () => {
    const env: NodeJS.ProcessEnv = { ...process.env, LIVE_SEED_MNEMONIC: HARDHAT };
    delete env.DATABASE_URL;
    const seed = mnemonicToSeedSync(HARDHAT);
    const json = await runCli(["wallets", "xpub", "--json"], env);
    expect(json.code, json.stderr).toBe(0);
    expect(JSON.parse(json.stdout)).toEqual({
      LIVE_EVM_XPUB: accountXpub(seed, "evm"),
      LIVE_TRON_XPUB: accountXpub(seed, "tron"),
    });
    const text = await runCli(["wallets", "xpub"], env);
    expect(text.stdout).toBe(
      `LIVE_EVM_XPUB=${accountXpub(seed, "evm")}\nLIVE_TRON_XPUB=${accountXpub(seed, "tron")}\n`,
    );
    delete env.LIVE_SEED_MNEMONIC;
    const none = await runCli(["wallets", "xpub"], env);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain("no live seed configured");
  }, 60_000);
});
