import { addressKey } from "@/lib/chains/address-key";
import { CHAIN_FAMILY, type Chain, type ChainFamily } from "@/lib/chains/chains";
import { CHAIN_FAMILIES } from "@/lib/kernel/chain-ids";
import { addressProblem } from "@/lib/chains/validate-address";
import type { SdnEntry } from "./ofac-files";

/** A deny-list row the import writes: chain null for an EVM address (denied on every EVM chain). */
export interface OfacAddress {
  chain: Chain | null;
  address: string;
  reason: string;
}

/** The addresses, and how many apply to each chain family. */
export interface OfacExtract extends Record<ChainFamily, number> {
  addresses: OfacAddress[];
  /** Per currency tag: addresses of other chains (XBT, LTC, XMR, …) and malformed ones. */
  skipped: Record<string, number>;
}

// Tags under which OFAC lists Tron and Solana addresses: the chain's own coin, and the stablecoins it carries.
const TRON_TAGS = new Set(["TRX", "USDT", "USDC"]);
const SOLANA_TAGS = new Set(["SOL", "USDT", "USDC"]);

/**
 * Where an address listed under `currency` applies, or null when not on our chains (or malformed).
 * 0x + 40 hex under any tag (ETH, USDT, BSC, ARB, MATIC…) is the same account on every EVM chain: chain null,
 * like a hand entry without a chain. isDenied matches such a row on any chain, but only an EVM destination can
 * equal it: a Tron or Solana address is base58, never 0x-hex.
 * The EIP-55 case is not required: a mis-cased listing still names the account. Tron: base58check with the
 * 0x41 prefix (34 characters, from T); Solana: base58 of exactly 32 bytes (a Tron or Bitcoin address decodes
 * to 25, so the two never overlap).
 */
function classify(currency: string, token: string): { chain: Chain | null; address: string } | null {
  if (/^0x[0-9a-fA-F]{40}$/.test(token)) return { chain: null, address: addressKey(token) };
  if (TRON_TAGS.has(currency) && addressProblem("tron", token) === null) return { chain: "tron", address: token };
  if (SOLANA_TAGS.has(currency) && addressProblem("solana", token) === null) return { chain: "solana", address: token };
  return null;
}

/** `Digital Currency Address - ETH 0x…;` and `alt. Digital Currency Address - USDT T…;` in an entry's remarks. */
const LISTING = /Digital\s+Currency\s+Address\s*-\s*([A-Za-z0-9]+)\s+([^\s;]+)/g;

/** The addresses of `entries` that apply to our chains, one row per (chain, address), with who listed it. */
export function extractOfacAddresses(entries: SdnEntry[]): OfacExtract {
  const rows = new Map<string, OfacAddress>();
  const skipped: Record<string, number> = {};
  for (const entry of entries) {
    const by = `${entry.name} (ent ${entry.ent})`;
    for (const [, tag, raw] of entry.remarks.matchAll(LISTING)) {
      const currency = tag!.toUpperCase();
      // The last remark ends the entry with a period, which is never part of an address.
      const found = classify(currency, raw!.replace(/\.$/, ""));
      if (!found) {
        skipped[currency] = (skipped[currency] ?? 0) + 1;
        continue;
      }
      const key = `${found.chain ?? "*"} ${found.address}`;
      const seen = rows.get(key);
      if (!seen) rows.set(key, { ...found, reason: `OFAC SDN: ${by}` });
      else if (!seen.reason.includes(by)) seen.reason += `; ${by}`;
    }
  }
  const addresses = [...rows.values()];
  const perFamily = Object.fromEntries(CHAIN_FAMILIES.map((f) => [f, 0])) as Record<ChainFamily, number>;
  // An EVM address is listed once for every EVM chain (chain null).
  for (const a of addresses) perFamily[a.chain === null ? "evm" : CHAIN_FAMILY[a.chain]]++;
  return { addresses, ...perFamily, skipped };
}
