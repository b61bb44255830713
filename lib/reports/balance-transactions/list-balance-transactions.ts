import { formatAmount } from "@/lib/kernel/amount";
import { DomainError, invalidRequest } from "@/lib/kernel/domain-error";
import type { Mode } from "@/lib/kernel/mode";
import type { Db } from "@/lib/platform/db/client";
import { listFilterSql } from "@/lib/platform/db/list-filter-sql";
import { query } from "@/lib/platform/db/query";
import type { BalanceTransactionObject, ListBalanceTransactionsQuery } from "./balance-transaction-object";

type Owner = { merchantId: string; mode: Mode };

/**
 * The owner's `available` entries ($1 merchant, $2 mode) as `e`, each with its `t.type` and `t.source`.
 * A balance transaction is a journal's one `available` entry (lib/books/ledger/post-journal.ts): its id is the
 * journal's, its type and source follow from the journal's cause, its running balance was written with it.
 * A credit through a payment's deposit names the payment, a deposit address's the deposit; an adjustment's cause
 * is `adj_…:reason`.
 */
export const BALANCE_ENTRIES_FROM = `
  from ledger_entries e
  left join deposits d on e.cause_type = 'deposit' and d.id = e.cause_id
  cross join lateral (select
    case e.cause_type
      when 'payment' then 'payment'
      when 'deposit' then case when d.kind = 'address' then
          case when e.amount_units > 0 then 'deposit' else 'deposit_reversal' end
        else case when e.amount_units > 0 then 'payment' else 'payment_reversal' end end
      when 'payout' then case when e.amount_units < 0 then 'payout' else 'payout_return' end
      when 'refund' then case when e.amount_units < 0 then 'refund' else 'refund_return' end
      else 'adjustment' end as type,
    case e.cause_type
      when 'deposit' then coalesce(d.payment_id, d.id)
      when 'adjustment' then split_part(e.cause_id, ':', 1)
      else e.cause_id end as source) t
  where e.merchant_id = $1 and e.mode = $2 and e.account = 'available'`;
export const BALANCE_ENTRIES = `
  select e.id, e.journal_id, e.chain, e.amount_units::text as amount, e.available_after_units::text as after,
         e.created_at, t.type, t.source ${BALANCE_ENTRIES_FROM}`;

export interface EntryRow {
  id: string;
  journal_id: string;
  chain: BalanceTransactionObject["chain"];
  amount: string;
  after: string;
  created_at: Date;
  type: BalanceTransactionObject["type"];
  source: string;
}

const TXN_ID = /^txn_([0-9a-f]{8})([0-9a-f]{4})([0-9a-f]{4})([0-9a-f]{4})([0-9a-f]{12})$/;

/** The journal a `txn_…` id names, or null when it cannot name one. */
function journalOf(id: string): string | null {
  const parts = TXN_ID.exec(id);
  return parts ? `jnl_${parts.slice(1).join("-")}` : null;
}

export function toBalanceTransaction(row: EntryRow): BalanceTransactionObject {
  const amount = formatAmount(BigInt(row.amount));
  return {
    id: `txn_${row.journal_id.slice(4).replaceAll("-", "")}`,
    object: "balance_transaction",
    type: row.type,
    amount,
    fee: formatAmount(0n),
    net: amount,
    chain: row.chain,
    source: row.source,
    available_after: formatAmount(BigInt(row.after)),
    created_at: row.created_at.toISOString(),
  };
}

/**
 * Newest first, in the order they moved each chain's balance (the entries' ids), keyset-paged on that order and
 * narrowed by `type`, `chain`, `source` and `created[…]` (docs/API.md#balance-transactions).
 */
export async function listBalanceTransactions(
  db: Db,
  owner: Owner,
  page: ListBalanceTransactionsQuery,
): Promise<{ data: BalanceTransactionObject[]; hasMore: boolean }> {
  const values: unknown[] = [owner.merchantId, owner.mode];
  const where = listFilterSql({ chain: page.chain, created: page.created }, values).map((c) => `e.${c}`);
  if (page.type) where.push(`t.type = $${values.push(page.type)}`);
  if (page.source) where.push(`t.source = $${values.push(page.source)}`);
  if (page.starting_after) where.push(`e.id < $${values.push(await cursorEntry(db, owner, page.starting_after))}`);
  const limit = page.limit ?? 20;
  const rows = await query<EntryRow>(
    db,
    `${BALANCE_ENTRIES}${where.map((c) => ` and ${c}`).join("")} order by e.id desc limit $${values.push(limit + 1)}`,
    values,
  );
  return { data: rows.slice(0, limit).map(toBalanceTransaction), hasMore: rows.length > limit };
}

/** One of the owner's balance transactions; 404 otherwise. */
export async function getBalanceTransaction(db: Db, owner: Owner, id: string): Promise<BalanceTransactionObject> {
  const journal = journalOf(id);
  const [row] = journal
    ? await query<EntryRow>(db, `${BALANCE_ENTRIES} and e.journal_id = $3`, [owner.merchantId, owner.mode, journal])
    : [];
  if (!row) throw new DomainError("not_found", `No such balance transaction: '${id}'.`);
  return toBalanceTransaction(row);
}

async function cursorEntry(db: Db, owner: Owner, id: string): Promise<string> {
  const journal = journalOf(id);
  const [row] = journal
    ? await query<{ id: string }>(
        db,
        "select id::text from ledger_entries " +
          "where merchant_id = $1 and mode = $2 and account = 'available' and journal_id = $3",
        [owner.merchantId, owner.mode, journal],
      )
    : [];
  if (!row)
    throw invalidRequest(
      `starting_after '${id}' is not a balance transaction of yours in this mode.`,
      "starting_after",
    );
  return row.id;
}
