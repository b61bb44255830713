import type { ChainConfig } from "@/lib/chains/chain-config";
import { createOutbound } from "@/lib/money-out/outbound/create-outbound";
import { getDb } from "@/lib/platform/db/client";
import { freshAddress } from "./chain-units";

/** A bare payout intent (no merchant's payout around it) of 0.1 USDT from the sandbox treasury to a new address. */
export function treasuryPayout(config: ChainConfig, treasury: string) {
  return createOutbound(getDb(), {
    mode: "sandbox",
    chain: config.chain,
    purpose: "payout",
    signer: { role: "treasury" },
    fromAddress: treasury,
    toAddress: freshAddress(config),
    asset: "token",
    rawAmount: 100_000n,
  });
}
