import { parseAmount } from "@/lib/kernel/amount";
import type { SearchTerm, SearchType } from "./search-query";

/** The columns a search reads in each table, as SQL over its alias `x` (trusted constants). */
interface Columns {
  ids: string[];
  addresses: string[];
  /** Addresses of the transfers that paid it (a payment's deposits), as an EXISTS over `deposits d`. */
  depositAddresses?: string;
  hashes: string[];
  depositHashes?: string;
  amounts: string[];
  text: string;
}

const DEPOSITS = "select 1 from deposits d where d.payment_id = x.id and ";
export const SEARCH_COLUMNS: Record<SearchType, Columns> = {
  payment: {
    ids: ["x.id"],
    addresses: ["x.deposit_address", "x.payer_address"],
    depositAddresses: "d.from_address",
    hashes: ["x.tx_hash"],
    depositHashes: "d.tx_hash",
    amounts: ["x.amount_units", "x.amount_received_units"],
    text: "x.description",
  },
  payout: {
    ids: ["x.id"],
    addresses: ["x.to_address"],
    hashes: ["x.tx_hash"],
    amounts: ["x.amount_units"],
    text: "x.description",
  },
  // A refund is found by its payment's id too.
  refund: {
    ids: ["x.id", "x.payment_id"],
    addresses: ["x.to_address"],
    hashes: ["x.tx_hash"],
    amounts: ["x.amount_units"],
    text: "x.reason",
  },
};

// Hex (EVM addresses and hashes, Tron transaction ids) compares without case; base58 (Tron and Solana addresses,
// Solana signatures) is case-sensitive.
const HEX = /^(0x)?[0-9a-f]+$/i;

/**
 * One term's condition on a table, its values appended to `values`; null when the term cannot match there (an
 * amount that is no amount). A bare term matches any field.
 */
export function termCondition(type: SearchType, term: SearchTerm, values: unknown[]): string | null {
  const c = SEARCH_COLUMNS[type];
  const param = (value: unknown) => `$${values.push(value)}`;
  const any = term.field === null;
  const parts: string[] = [];
  const v = term.value;
  if (any || term.field === "id") parts.push(...c.ids.map((col) => `${col} = ${param(v)}`));
  const exact = (cols: string[], inDeposits?: string) => {
    const hex = HEX.test(v);
    const p = param(hex ? v.toLowerCase() : v);
    const eq = (col: string) => (hex ? `lower(${col}) = ${p}` : `${col} = ${p}`);
    parts.push(...cols.map(eq));
    if (inDeposits) parts.push(`exists (${DEPOSITS}${eq(inDeposits)})`);
  };
  if (any || term.field === "address") exact(c.addresses, c.depositAddresses);
  if (any || term.field === "tx") exact(c.hashes, c.depositHashes);
  if (any || term.field === "amount") {
    const units = amountUnits(v);
    if (units !== null) parts.push(...c.amounts.map((col) => `${col} = ${param(units.toString())}`));
  }
  if (any || term.field === "description")
    parts.push(`${c.text} ilike ${param(`%${v.replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`)}`);
  if (any || term.field === "metadata")
    parts.push(
      term.key === null
        ? `exists (select 1 from jsonb_each_text(x.metadata) m where m.value = ${param(v)})`
        : `x.metadata ->> ${param(term.key)} = ${param(v)}`,
    );
  return parts.length ? `(${parts.join(" or ")})` : null;
}

function amountUnits(text: string): bigint | null {
  const parsed = parseAmount(text, "up_to_6");
  return parsed.ok ? parsed.units : null;
}
