import { HDKey, hdKeyToAccount } from "viem/accounts";
import { mnemonicSeed } from "@/lib/chains/wallets/bip39-seed";

/** Anvil's well-known development mnemonic; account 0 deploys the tokens and owns their mint. */
export const ANVIL_MNEMONIC = "test test test test test test test test test test test junk";

let root: HDKey | undefined;

/**
 * Anvil's funded dev account `addressIndex` (m/44'/60'/0'/0/i), as viem's mnemonicToAccount gives it, from one
 * seed computed once per process: mnemonicToAccount runs the mnemonic's PBKDF2 in JavaScript on every call.
 */
export function anvilAccount(addressIndex = 0) {
  root ??= HDKey.fromMasterSeed(mnemonicSeed(ANVIL_MNEMONIC));
  return hdKeyToAccount(root, { addressIndex });
}
