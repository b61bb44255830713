import { CHAIN_FAMILY } from "@/lib/chains/chains";
import { watchKey } from "@/lib/chains/connect/watch-key";
import { requireEnabledChain } from "@/lib/chains/require-enabled-chain";
import { claimPoolAddress } from "@/lib/chains/wallets/deposit-address-pool";
import { DomainError, notFound } from "@/lib/kernel/domain-error";
import type { Mode } from "@/lib/kernel/mode";
import { newId } from "@/lib/kernel/random";
import { requireCustomer } from "@/lib/money-in/customers/manage-customers";
import type { Db } from "@/lib/platform/db/client";
import { keysetPage } from "@/lib/platform/db/keyset-page";
import { execute, query } from "@/lib/platform/db/query";
import { type DepositAddressRow, depositAddressRow } from "./deposit-address-row";
import type { CreateDepositAddressInput, ListDepositAddressesQuery, UpdateDepositAddressInput } from "./schemas";

type Owner = { merchantId: string; mode: Mode };

/**
 * A new deposit address, in the caller's transaction, from the `deposit` range of the chain family's pool (the web
 * process derives nothing). One per (customer, chain): requests for it serialize on a transaction lock and the
 * later ones get the address the first made, as it is (disabled too). Without a customer, each call makes one.
 * An empty pool (the refill is behind) is a transient refusal with Retry-After, nothing written.
 */
export async function createDepositAddress(
  tx: Db,
  owner: Owner,
  input: CreateDepositAddressInput,
): Promise<DepositAddressRow> {
  requireEnabledChain(owner.mode, input.chain);
  if (input.customer) {
    await requireCustomer(tx, owner, input.customer);
    await execute(tx, "select pg_advisory_xact_lock(hashtextextended($1, 0))", [
      `deposit-address:${owner.merchantId}:${owner.mode}:${input.customer}:${input.chain}`,
    ]);
    const [existing] = await query(
      tx,
      `select ${depositAddressRow.columns} from deposit_addresses
        where merchant_id = $1 and mode = $2 and customer_id = $3 and chain = $4`,
      [owner.merchantId, owner.mode, input.customer, input.chain],
    );
    if (existing) return depositAddressRow.map(existing);
  }
  const id = newId("da_");
  const family = CHAIN_FAMILY[input.chain];
  const taken = await claimPoolAddress(tx, owner.mode, family, { purpose: "deposit", ownerId: id });
  if (!taken)
    throw new DomainError(
      "internal_server_error",
      "No deposit address is ready on this network yet; retry in a moment (the service is deriving more).",
      { retryAfterSeconds: 1 },
    );
  const [row] = await query(
    tx,
    `insert into deposit_addresses (id, merchant_id, mode, customer_id, chain, family, address, watch_key,
       derivation_index, status, metadata)
     values ($1, $2, $3, $4, $5, $6, $7, $8, $9, 'active', $10) returning ${depositAddressRow.columns}`,
    [
      id,
      owner.merchantId,
      owner.mode,
      input.customer ?? null,
      input.chain,
      family,
      taken.address,
      watchKey(input.chain, taken.address),
      taken.index,
      JSON.stringify(input.metadata ?? {}),
    ],
  );
  return depositAddressRow.map(row!);
}

/** One of this merchant's and mode's deposit addresses; anything else is 404. */
export async function getDepositAddress(db: Db, owner: Owner, id: string, lock = false): Promise<DepositAddressRow> {
  const [row] = await query(
    db,
    `select ${depositAddressRow.columns} from deposit_addresses
      where id = $1 and merchant_id = $2 and mode = $3${lock ? " for update" : ""}`,
    [id, owner.merchantId, owner.mode],
  );
  if (!row) throw notFound("deposit address", id);
  return depositAddressRow.map(row);
}

/** Disables or re-enables an address, or replaces its metadata, in the caller's transaction. */
export async function updateDepositAddress(
  tx: Db,
  owner: Owner,
  id: string,
  input: UpdateDepositAddressInput,
): Promise<DepositAddressRow> {
  await getDepositAddress(tx, owner, id, true);
  const [row] = await query(
    tx,
    `update deposit_addresses set status = coalesce($2, status), metadata = coalesce($3::jsonb, metadata),
       updated_at = now() where id = $1 returning ${depositAddressRow.columns}`,
    [id, input.status ?? null, input.metadata === undefined ? null : JSON.stringify(input.metadata)],
  );
  return depositAddressRow.map(row!);
}

/** The watch keys an address typed by someone may have (EVM in any case; a Tron T-address; Solana as is). */
function watchKeysOf(address: string): string[] {
  const keys = [address, address.toLowerCase()];
  if (TRON_ADDRESS.test(address))
    try {
      keys.push(watchKey("tron", address));
    } catch {
      // Not a valid T-address (checksum): it names no deposit address.
    }
  return keys;
}
const TRON_ADDRESS = /^T[1-9A-HJ-NP-Za-km-z]{33}$/;

/** Newest first, narrowed by customer, chain, status and address (any case on EVM; through the watch-key index). */
export async function listDepositAddresses(
  db: Db,
  owner: Owner,
  page: Partial<ListDepositAddressesQuery>,
): Promise<{ rows: DepositAddressRow[]; hasMore: boolean }> {
  const values: unknown[] = [owner.merchantId, owner.mode];
  const where = ["merchant_id = $1", "mode = $2"];
  if (page.customer !== undefined) where.push(`customer_id = $${values.push(page.customer)}`);
  if (page.chain !== undefined) where.push(`chain = $${values.push(page.chain)}`);
  if (page.status !== undefined) where.push(`status = $${values.push(page.status)}`);
  if (page.address !== undefined) where.push(`watch_key = any($${values.push(watchKeysOf(page.address))}::text[])`);
  const result = await keysetPage(db, {
    table: "deposit_addresses",
    columns: depositAddressRow.columns,
    filter: { sql: where.join(" and "), values },
    limit: page.limit,
    startingAfter: page.starting_after,
    noun: "deposit address",
  });
  return { rows: result.rows.map(depositAddressRow.map), hasMore: result.hasMore };
}
