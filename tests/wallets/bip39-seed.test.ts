import { generateMnemonic, mnemonicToSeedSync } from "@scure/bip39";
import { wordlist } from "@scure/bip39/wordlists/english.js";
import fc from "fast-check";
import { toHex } from "viem";
import { mnemonicToAccount } from "viem/accounts";
import { describe, expect, it } from "vitest";
import { mnemonicSeed } from "@/lib/chains/wallets/bip39-seed";
import { ANVIL_MNEMONIC, anvilAccount } from "@/sandbox/evm/anvil-accounts";

describe("a mnemonic's BIP-39 seed (native PBKDF2)", () => {
  it("is BIP-39's test vector (passphrase TREZOR)", () => {
    const mnemonic = `${"abandon ".repeat(11)}about`;
    expect(toHex(mnemonicSeed(mnemonic, "TREZOR"))).toBe(
      "0xc55257c360c07c72029aebc1b53c05ed0362ada38ead3e3e9efa3708e5349553" +
        "1f09a6987599d18264c1e1c92f2cf141630c7a3c4ab7c81b2f001698e7463b04",
    );
  });

  it("is the seed @scure/bip39 computes, for any mnemonic and passphrase (unicode normalized alike)", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(128, 256),
        fc.string({ unit: "grapheme", maxLength: 12 }),
        fc.constantFrom("", "é", "e\u0301", "ﬁ"),
        (strength, passphrase, accent) => {
          const mnemonic = generateMnemonic(wordlist, strength);
          const pass = passphrase + accent;
          expect(toHex(mnemonicSeed(mnemonic, pass))).toBe(toHex(mnemonicToSeedSync(mnemonic, pass)));
        },
      ),
      { numRuns: 40 },
    );
  });

  it("gives anvil's dev accounts, as viem's mnemonicToAccount does", () => {
    expect(anvilAccount().address).toBe("0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266");
    for (const i of [0, 1, 9])
      expect(anvilAccount(i).address).toBe(mnemonicToAccount(ANVIL_MNEMONIC, { addressIndex: i }).address);
    expect(anvilAccount().getHdKey().privateKey).toEqual(mnemonicToAccount(ANVIL_MNEMONIC).getHdKey().privateKey);
  });
});
