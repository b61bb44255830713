import { randomUUID } from "node:crypto";
import type { Db } from "@/lib/platform/db/client";
import { query } from "@/lib/platform/db/query";
import { type CustodyJournal, custodyImbalances } from "./custody-types";

/**
 * Appends custody journals (docs/CUSTODY.md, "The installation's own books") in the caller's transaction, the
 * one that makes the state change causing them, with one statement however many there are. A journal that does
 * not sum to zero per asset is refused (nothing is written); zero entries are dropped, and a journal left with
 * none is skipped.
 */
export async function postCustody(tx: Db, journals: CustodyJournal[]): Promise<string[]> {
  const rows: string[][] = [];
  const ids: string[] = [];
  for (const journal of journals) {
    const entries = journal.entries.filter((e) => e.amount !== 0n);
    const off = custodyImbalances(entries);
    if (off.size > 0)
      throw new Error(
        `custody journal for ${journal.cause.type} ${journal.cause.id} does not balance: ${[...off]
          .map(([asset, sum]) => `${asset} ${sum}`)
          .join(", ")}`,
      );
    if (entries.length === 0) continue;
    const journalId = `cjn_${randomUUID()}`;
    ids.push(journalId);
    for (const e of entries)
      rows.push([
        journalId,
        journal.mode,
        journal.chain,
        e.asset,
        e.account,
        e.address as string,
        e.amount.toString(),
        journal.cause.type,
        journal.cause.id,
      ]);
  }
  if (rows.length === 0) return ids;
  const column = (i: number) => rows.map((r) => r[i]);
  await query(
    tx,
    `insert into custody_entries (journal_id, mode, chain, asset, account, address, amount, cause_type, cause_id)
     select * from unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::numeric[],
                          $8::text[], $9::text[])`,
    [0, 1, 2, 3, 4, 5, 6, 7, 8].map(column),
  );
  return ids;
}
