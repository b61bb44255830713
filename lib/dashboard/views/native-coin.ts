import { CHAIN_SPECS } from "@/lib/chains/chain-registry";
import type { Chain } from "@/lib/chains/chains";

/** Each chain's fee coin and its decimals, to show a network fee paid in native base units. */
export const nativeCoin = (chain: Chain): { symbol: string; decimals: number } => CHAIN_SPECS[chain].native;

/** Native base units as an exact decimal string ("0.000021", trailing zeros dropped). */
export function formatNative(units: bigint, decimals: number): string {
  const s = units.toString().padStart(decimals + 1, "0");
  const frac = s.slice(-decimals).replace(/0+$/, "");
  return `${s.slice(0, -decimals)}${frac ? `.${frac}` : ""}`;
}
