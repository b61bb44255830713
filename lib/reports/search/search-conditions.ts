import { parseAmount } from "@/lib/kernel/amount";
import type { SearchTerm, SearchType } from "./search-query";
import { metadataJsonPath } from "@/lib/platform/db/metadata-path";

/** The columns a search reads in each table, as SQL over its alias `x` (trusted constants), each indexed (0044). */
interface Columns {
  ids: string[];
  addresses: string[];
  /** The payment's transfers' senders, in `deposits` (a payment only). */
  depositAddresses?: string;
  hashes: string[];
  depositHashes?: string;
  amount: string;
  text: string;
}

export const SEARCH_COLUMNS: Record<SearchType, Columns> = {
  payment: {
    ids: ["x.id"],
    addresses: ["x.deposit_address", "x.payer_address"],
    depositAddresses: "d.from_address",
    hashes: ["x.tx_hash"],
    depositHashes: "d.tx_hash",
    amount: "x.amount_units",
    text: "x.description",
  },
  payout: {
    ids: ["x.id"],
    addresses: ["x.to_address"],
    hashes: ["x.tx_hash"],
    amount: "x.amount_units",
    text: "x.description",
  },
  // A refund is found by its payment's id too.
  refund: {
    ids: ["x.id", "x.payment_id"],
    addresses: ["x.to_address"],
    hashes: ["x.tx_hash"],
    amount: "x.amount_units",
    text: "x.reason",
  },
};

// Hex (EVM addresses and hashes, Tron transaction ids) compares without case; base58 (Tron and Solana addresses,
// Solana signatures) is case-sensitive.
const HEX = /^(0x)?[0-9a-f]+$/i;

/**
 * One term's condition on a table, its values appended to `values`; null when the term cannot match there (an
 * amount that is no amount). A bare term matches any field. Every branch is an index's condition (lower(column),
 * jsonb_ops, trigrams, the payment ids of matching deposits), so the planner ORs index scans, never a scan.
 */
export function termCondition(type: SearchType, term: SearchTerm, values: unknown[]): string | null {
  const c = SEARCH_COLUMNS[type];
  const param = (value: unknown) => `$${values.push(value)}`;
  const any = term.field === null;
  const parts: string[] = [];
  const v = term.value;
  if (any || term.field === "id") parts.push(...c.ids.map((col) => `${col} = ${param(v)}`));
  const exact = (cols: string[], inDeposits?: string) => {
    const lower = param(v.toLowerCase());
    // Base58 is found through the same lower() index, then compared as written.
    const asWritten = HEX.test(v) ? null : param(v);
    const eq = (col: string) =>
      asWritten ? `(lower(${col}) = ${lower} and ${col} = ${asWritten})` : `lower(${col}) = ${lower}`;
    parts.push(...cols.map(eq));
    if (inDeposits) parts.push(`x.id = any(array(select d.payment_id from deposits d where ${eq(inDeposits)}))`);
  };
  if (any || term.field === "address") exact(c.addresses, c.depositAddresses);
  if (any || term.field === "tx") exact(c.hashes, c.depositHashes);
  if (any || term.field === "amount") {
    const units = amountUnits(v);
    if (units !== null) parts.push(`${c.amount} = ${param(units.toString())}`);
  }
  if (any || term.field === "description")
    parts.push(`${c.text} ilike ${param(`%${v.replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`)}`);
  if (any || term.field === "metadata") parts.push(`x.metadata @? ${param(metadataJsonPath(term.key, v))}::jsonpath`);
  return parts.length ? `(${parts.join(" or ")})` : null;
}

function amountUnits(text: string): bigint | null {
  const parsed = parseAmount(text, "up_to_6");
  return parsed.ok ? parsed.units : null;
}
