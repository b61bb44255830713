import { randomUUID } from "node:crypto";
import type { Chain } from "@/lib/chains/chains";
import type { Db } from "@/lib/platform/db/client";
import { query } from "@/lib/platform/db/query";
import type { Mode } from "@/lib/kernel/mode";
import type { ExternalAccount, MerchantAccount } from "@/lib/kernel/ledger-accounts";

export type { ExternalAccount, MerchantAccount } from "@/lib/kernel/ledger-accounts";

export interface Journal {
  merchantId: string;
  mode: Mode;
  chain: Chain;
  cause: { type: "payment" | "deposit" | "payout" | "refund" | "adjustment"; id: string };
  entries: { account: MerchantAccount | ExternalAccount; amount: bigint }[];
}

/** A merchant account would go negative: the journal was refused and nothing was written. */
export class InsufficientFundsError extends Error {}

type BalanceDelta = "available" | "reserved" | "inFlight" | "refundsInFlight";
const BALANCE_COLUMN: Record<MerchantAccount, BalanceDelta> = {
  available: "available",
  reserved: "reserved",
  payouts_in_flight: "inFlight",
  refunds_in_flight: "refundsInFlight",
};

/** Appends one balanced journal and applies it to the balances row, in the caller's transaction. */
export async function postJournal(tx: Db, journal: Journal): Promise<string> {
  const [id] = await postJournals(tx, [journal]);
  return id!;
}

/**
 * Appends balanced journals and applies them to the balances rows, in the caller's transaction, with a
 * fixed number of statements however many journals there are (a chain scan may post hundreds). The
 * balances rows are locked last, in key order, so concurrent writers serialize there briefly and without
 * deadlocks; a CHECK constraint refuses any balance below zero, which makes overdrafts impossible rather
 * than unlikely. Callers that hold a balance until COMMIT post their journal last (create-payout.ts).
 */
export async function postJournals(tx: Db, journals: Journal[]): Promise<string[]> {
  if (journals.length === 0) return [];
  const deltas = new Map<string, { merchantId: string; mode: Mode; chain: Chain } & Record<BalanceDelta, bigint>>();
  const ids: string[] = [];
  const entryRows: [string, string, Mode, Chain, string, string, string, string, string | null][] = [];
  for (const journal of journals) {
    const sum = journal.entries.reduce((acc, e) => acc + e.amount, 0n);
    if (sum !== 0n || journal.entries.length < 2)
      throw new Error("a journal needs two or more entries summing to zero");
    if (journal.entries.some((e) => e.amount === 0n)) throw new Error("a journal entry cannot be zero");
    // One entry per merchant account: a balance transaction is a journal's one `available` entry.
    const own = journal.entries.filter((e) => e.account in BALANCE_COLUMN).map((e) => e.account);
    if (new Set(own).size !== own.length) throw new Error("a journal moves each merchant account once");
    const journalId = `jnl_${randomUUID()}`;
    ids.push(journalId);
    const key = `${journal.merchantId}\0${journal.mode}\0${journal.chain}`;
    let delta = deltas.get(key);
    if (!delta)
      deltas.set(
        key,
        (delta = {
          merchantId: journal.merchantId,
          mode: journal.mode,
          chain: journal.chain,
          available: 0n,
          reserved: 0n,
          inFlight: 0n,
          refundsInFlight: 0n,
        }),
      );
    for (const e of journal.entries) {
      if (e.account in BALANCE_COLUMN) delta[BALANCE_COLUMN[e.account as MerchantAccount]] += e.amount;
      entryRows.push([
        journalId,
        journal.merchantId,
        journal.mode,
        journal.chain,
        e.account,
        e.amount.toString(),
        journal.cause.type,
        journal.cause.id,
        null, // available_after, once the balances row is updated
      ]);
    }
  }
  const rows = [...deltas.values()].sort((a, b) =>
    a.merchantId + a.mode + a.chain < b.merchantId + b.mode + b.chain ? -1 : 1,
  );
  const col = <K extends keyof (typeof rows)[number]>(k: K) => rows.map((r) => String(r[k]));

  // The rows exist first so the CHECK is judged on the updated balance (a proposed INSERT row with a
  // negative delta would fail the CHECK before ON CONFLICT is even considered). This locks no balance: the rows
  // are locked last, so concurrent writers of one balance (a burst of payouts) wait on it only for the update,
  // the entries' insert and the caller's COMMIT.
  await query(
    tx,
    `insert into balances (merchant_id, mode, chain) select * ` +
      `from unnest($1::text[], $2::text[], $3::text[]) on conflict do nothing`,
    [col("merchantId"), col("mode"), col("chain")],
  );
  // Several rows are locked in key order first, so writers of overlapping sets never deadlock (an UPDATE's
  // own order is the plan's); one row is locked by its update.
  if (rows.length > 1)
    await query(
      tx,
      `select 1 from balances b
         join unnest($1::text[], $2::text[], $3::text[]) as d(merchant_id, mode, chain) using (merchant_id, mode, chain)
       order by b.merchant_id, b.mode, b.chain for update of b`,
      [col("merchantId"), col("mode"), col("chain")],
    );
  let updated: { merchant_id: string; mode: string; chain: string; available_units: string }[];
  try {
    updated = await query(
      tx,
      `update balances b
       set available_units = b.available_units + d.available, reserved_units = b.reserved_units + d.reserved,
         in_flight_units = b.in_flight_units + d.in_flight,
         refunds_in_flight_units = b.refunds_in_flight_units + d.refunds_in_flight, updated_at = now()
       from unnest($1::text[], $2::text[], $3::text[], $4::bigint[], $5::bigint[], $6::bigint[], $7::bigint[])
         as d(merchant_id, mode, chain, available, reserved, in_flight, refunds_in_flight)
       where b.merchant_id = d.merchant_id and b.mode = d.mode and b.chain = d.chain
       returning b.merchant_id, b.mode, b.chain, b.available_units::text`,
      [
        col("merchantId"),
        col("mode"),
        col("chain"),
        col("available"),
        col("reserved"),
        col("inFlight"),
        col("refundsInFlight"),
      ],
    );
  } catch (err) {
    if ((err as { code?: string }).code === "23514") throw new InsufficientFundsError("balance would go negative");
    throw err;
  }
  // Inserted under the balances rows' locks: within a (merchant, mode, chain) the entries' ids follow the order
  // the balance moved in, and each `available` entry carries the balance right after it.
  const running = new Map<string, bigint>();
  for (const b of updated) {
    const key = `${b.merchant_id}\0${b.mode}\0${b.chain}`;
    running.set(key, BigInt(b.available_units) - deltas.get(key)!.available);
  }
  for (const row of entryRows) {
    if (row[4] !== "available") continue;
    const key = `${row[1]}\0${row[2]}\0${row[3]}`;
    const after = running.get(key)! + BigInt(row[5]);
    running.set(key, after);
    row[8] = after.toString();
  }
  const column = (i: number) => entryRows.map((r) => r[i]);
  await query(
    tx,
    `insert into ledger_entries
       (journal_id, merchant_id, mode, chain, account, amount_units, cause_type, cause_id, available_after_units)
     select journal_id, merchant_id, mode, chain, account, amount_units, cause_type, cause_id, available_after
     from unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::bigint[], $7::text[], $8::text[],
                 $9::bigint[]) with ordinality
       as u(journal_id, merchant_id, mode, chain, account, amount_units, cause_type, cause_id, available_after, n)
     order by n`,
    [0, 1, 2, 3, 4, 5, 6, 7, 8].map(column),
  );
  return ids;
}
