import type { Chain } from "@/lib/chains/chains";

/** Each chain's fee coin and its decimals, to show a network fee paid in native base units. */
export const NATIVE_COIN: Record<Chain, { symbol: string; decimals: number }> = {
  eth: { symbol: "ETH", decimals: 18 },
  bnb: { symbol: "BNB", decimals: 18 },
  polygon: { symbol: "POL", decimals: 18 },
  tron: { symbol: "TRX", decimals: 6 },
  solana: { symbol: "SOL", decimals: 9 },
};

/** Native base units as an exact decimal string ("0.000021", trailing zeros dropped). */
export function formatNative(units: bigint, decimals: number): string {
  const s = units.toString().padStart(decimals + 1, "0");
  const frac = s.slice(-decimals).replace(/0+$/, "");
  return `${s.slice(0, -decimals)}${frac ? `.${frac}` : ""}`;
}
