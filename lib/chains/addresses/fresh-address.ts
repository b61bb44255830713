import { createHash, generateKeyPairSync, randomBytes } from "node:crypto";
import { base58 } from "@scure/base";
import type { Chain } from "../chains";

/** An address nobody holds the key of, valid on the chain: a payout's or a refund's fresh destination. */
export function freshAddress(chain: Chain): string {
  // A wallet's key on Solana is on the curve (refunds refuse program-derived addresses, which are not).
  if (chain === "solana")
    return base58.encode(
      generateKeyPairSync("ed25519").publicKey.export({ format: "der", type: "spki" }).subarray(-32),
    );
  const hash = randomBytes(20);
  if (chain !== "tron") return `0x${hash.toString("hex")}`;
  const payload = Buffer.concat([Buffer.from([0x41]), hash]); // Tron's prefix, then base58check
  const check = createHash("sha256").update(createHash("sha256").update(payload).digest()).digest();
  return base58.encode(Buffer.concat([payload, check.subarray(0, 4)]));
}
