import { randomBytes } from "node:crypto";
import { ed25519 } from "@noble/curves/ed25519.js";
import { base58 } from "@scure/base";
import { TronWeb } from "tronweb";
import { formatUnits } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import type { ChainConfig } from "@/lib/chains/chain-config";

/** Native units as the chain's small unit: gwei (EVM), lamports, sun. */
export const small = (chain: string, fee: bigint) =>
  chain === "solana" || chain === "tron"
    ? `${fee} ${chain === "tron" ? "sun" : "lamports"}`
    : `${formatUnits(fee, 9).replace(/(\.\d{1,1})\d*$/, "$1")} gwei`;

/** An address nobody uses yet, in the chain's own form. */
export function freshAddress(config: ChainConfig): string {
  if (config.family === "solana") return base58.encode(ed25519.getPublicKey(randomBytes(32)));
  if (config.family === "tron") {
    const address = TronWeb.address.fromPrivateKey(randomBytes(32).toString("hex"));
    if (!address) throw new Error("could not derive a Tron address");
    return address;
  }
  return privateKeyToAccount(generatePrivateKey()).address;
}
