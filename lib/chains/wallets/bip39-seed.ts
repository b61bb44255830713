import { pbkdf2Sync } from "node:crypto";

/**
 * A BIP-39 mnemonic's seed: PBKDF2-HMAC-SHA512 of its NFKD form, salted with "mnemonic" and the passphrase,
 * 2,048 rounds, 64 bytes. Node's native PBKDF2 rather than @scure/bip39's JavaScript one: about 2 ms instead of
 * 50-150 ms, paid by every worker and CLI process at start (the sandbox seed, anvil's dev accounts).
 */
export function mnemonicSeed(mnemonic: string, passphrase = ""): Uint8Array {
  const salt = `mnemonic${passphrase}`.normalize("NFKD");
  return new Uint8Array(pbkdf2Sync(mnemonic.normalize("NFKD"), salt, 2048, 64, "sha512"));
}
