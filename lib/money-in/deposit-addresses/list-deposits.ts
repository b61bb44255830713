import { notFound } from "@/lib/kernel/domain-error";
import type { Mode } from "@/lib/kernel/mode";
import type { Db } from "@/lib/platform/db/client";
import { keysetPage } from "@/lib/platform/db/keyset-page";
import { query } from "@/lib/platform/db/query";
import { type DepositView, toDepositView } from "./deposit-view";
import type { DepositStatus, ListDepositsQuery } from "./schemas";

type Owner = { merchantId: string; mode: Mode };

/**
 * The deposit addresses' deposits as one relation with the columns a page filters and orders on (`created_at`,
 * `id` unqualified), over the owner index of address deposits (deposits_owner_idx).
 */
const DEPOSITS = `(select d.id, d.merchant_id, d.mode, d.status, d.amount_units::text, d.chain, d.deposit_address_id,
    a.address, a.customer_id, d.from_address, d.tx_hash, d.log_index, d.block_number::text, d.address_disabled,
    d.created_at, d.credited_at
  from deposits d join deposit_addresses a on a.id = d.deposit_address_id where d.kind = 'address') dv`;
const COLUMNS = `id, merchant_id, status, amount_units, chain, deposit_address_id, address, customer_id, from_address,
  tx_hash, log_index, block_number, address_disabled, created_at, credited_at`;

/** The API's deposit status → the books' (serialize-deposit.ts is the other way). */
const BOOK_STATUS: Record<DepositStatus, DepositView["status"]> = {
  pending: "pending",
  confirmed: "credited",
  reversed: "orphaned",
  ignored_below_minimum: "ignored",
};

/** One of this merchant's and mode's deposits (to a deposit address); anything else is 404. */
export async function getDeposit(db: Db, owner: Owner, id: string): Promise<DepositView> {
  const [row] = await query(db, `select ${COLUMNS} from ${DEPOSITS} where id = $1 and merchant_id = $2 and mode = $3`, [
    id,
    owner.merchantId,
    owner.mode,
  ]);
  if (!row) throw notFound("deposit", id);
  return toDepositView(row);
}

/** Newest first, narrowed by deposit address, customer, chain, status and transaction hash. */
export async function listDeposits(
  db: Db,
  owner: Owner,
  page: Partial<ListDepositsQuery>,
): Promise<{ rows: DepositView[]; hasMore: boolean }> {
  const values: unknown[] = [owner.merchantId, owner.mode];
  const where = ["merchant_id = $1", "mode = $2"];
  if (page.deposit_address !== undefined) where.push(`deposit_address_id = $${values.push(page.deposit_address)}`);
  if (page.customer !== undefined) where.push(`customer_id = $${values.push(page.customer)}`);
  if (page.chain !== undefined) where.push(`chain = $${values.push(page.chain)}`);
  if (page.status !== undefined) where.push(`status = $${values.push(BOOK_STATUS[page.status])}`);
  if (page.tx_hash !== undefined) {
    // Hex hashes in any case; Solana's base58 signatures exactly.
    const n = values.push(page.tx_hash);
    where.push(`(tx_hash = $${n} or (chain <> 'solana' and lower(tx_hash) = lower($${n})))`);
  }
  const result = await keysetPage(db, {
    table: DEPOSITS,
    columns: COLUMNS,
    filter: { sql: where.join(" and "), values },
    limit: page.limit,
    startingAfter: page.starting_after,
    noun: "deposit",
  });
  return { rows: result.rows.map(toDepositView), hasMore: result.hasMore };
}
