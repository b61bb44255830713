import type { ChainConfig } from "./chain-config";
import { fromUsdtUnits } from "./chain-adapter";
import { formatAmount } from "@/lib/kernel/amount";

/**
 * What the checkout's QR code holds, in the form each chain's wallets understand:
 * - EVM: EIP-681 `ethereum:<token>@<chainId>/transfer?address=<deposit>&uint256=<amount in the token's base units>`
 * - Solana: Solana Pay `solana:<deposit>?amount=<USDT decimal>&spl-token=<mint>`
 * - Tron: the plain address (Tron wallets share no payment-URI scheme).
 */
export function paymentUri(
  chain: Pick<ChainConfig, "family" | "chainId" | "tokenAddress" | "decimals">,
  depositAddress: string,
  owedUnits: bigint,
): string {
  switch (chain.family) {
    case "evm":
      return (
        `ethereum:${chain.tokenAddress}@${chain.chainId}/transfer` +
        `?address=${depositAddress}&uint256=${fromUsdtUnits(owedUnits, chain.decimals)}`
      );
    case "solana":
      return `solana:${depositAddress}?amount=${trimDecimal(formatAmount(owedUnits))}&spl-token=${chain.tokenAddress}`;
    case "tron":
      return depositAddress;
  }
}

/** "25.500000" → "25.5", "25.000000" → "25", "0.000000" → "0": how a payer reads an amount. */
export function trimDecimal(amount: string): string {
  if (!amount.includes(".")) return amount;
  return amount.replace(/0+$/, "").replace(/\.$/, "");
}
