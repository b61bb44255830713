import { randomUUID } from "node:crypto";
import type { Chain } from "@/lib/chains/chains";
import type { Db } from "@/lib/db/client";
import { query } from "@/lib/db/query";
import type { Mode } from "@/lib/keys/api-key-format";

export type MerchantAccount = "available" | "reserved" | "payouts_in_flight";
export type ExternalAccount = "chain_deposits" | "chain_withdrawals" | "adjustments";

export interface Journal {
  merchantId: string;
  mode: Mode;
  chain: Chain;
  cause: { type: "payment" | "payout" | "adjustment"; id: string };
  entries: { account: MerchantAccount | ExternalAccount; amount: bigint }[];
}

/** A merchant account would go negative: the journal was refused and nothing was written. */
export class InsufficientFundsError extends Error {}

const BALANCE_COLUMN: Record<MerchantAccount, "available_units" | "reserved_units" | "in_flight_units"> = {
  available: "available_units",
  reserved: "reserved_units",
  payouts_in_flight: "in_flight_units",
};

/**
 * Appends one balanced journal and applies it to the balances row, in the caller's transaction. The
 * balances update locks the (merchant, mode, chain) row, so concurrent journals serialize there; a CHECK
 * constraint refuses any balance below zero, which makes overdrafts impossible rather than unlikely.
 */
export async function postJournal(tx: Db, journal: Journal): Promise<string> {
  const sum = journal.entries.reduce((acc, e) => acc + e.amount, 0n);
  if (sum !== 0n || journal.entries.length < 2) throw new Error("a journal needs two or more entries summing to zero");
  const journalId = `jnl_${randomUUID()}`;
  const delta = { available_units: 0n, reserved_units: 0n, in_flight_units: 0n };
  for (const e of journal.entries) if (e.account in BALANCE_COLUMN) delta[BALANCE_COLUMN[e.account as MerchantAccount]] += e.amount;

  // The row exists first so the CHECK is judged on the updated balance (a proposed INSERT row with a
  // negative delta would fail the CHECK before ON CONFLICT is even considered).
  await query(tx, "insert into balances (merchant_id, mode, chain) values ($1, $2, $3) on conflict do nothing", [journal.merchantId, journal.mode, journal.chain]);
  try {
    await query(
      tx,
      `update balances set available_units = available_units + $4, reserved_units = reserved_units + $5,
         in_flight_units = in_flight_units + $6, updated_at = now()
       where merchant_id = $1 and mode = $2 and chain = $3`,
      [journal.merchantId, journal.mode, journal.chain, delta.available_units.toString(), delta.reserved_units.toString(), delta.in_flight_units.toString()],
    );
  } catch (err) {
    if ((err as { code?: string }).code === "23514") throw new InsufficientFundsError("balance would go negative");
    throw err;
  }
  const values: unknown[] = [];
  const rows = journal.entries.map((e, i) => {
    values.push(e.account, e.amount.toString());
    return `($1, $2, $3, $4, $${7 + i * 2}, $${8 + i * 2}, $5, $6)`;
  });
  await query(
    tx,
    `insert into ledger_entries (journal_id, merchant_id, mode, chain, account, amount_units, cause_type, cause_id) values ${rows.join(", ")}`,
    [journalId, journal.merchantId, journal.mode, journal.chain, journal.cause.type, journal.cause.id, ...values],
  );
  return journalId;
}
