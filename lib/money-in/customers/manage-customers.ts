import { DomainError, invalidRequest, notFound } from "@/lib/kernel/domain-error";
import type { Mode } from "@/lib/kernel/mode";
import { newId } from "@/lib/kernel/random";
import type { Db } from "@/lib/platform/db/client";
import { keysetPage } from "@/lib/platform/db/keyset-page";
import { execute, query } from "@/lib/platform/db/query";
import { type CustomerRow, customerRow } from "./customer-row";
import type { CreateCustomerInput, ListCustomersQuery, UpdateCustomerInput } from "./schemas";

type Owner = { merchantId: string; mode: Mode };

/**
 * A reference is one customer's per merchant and mode: taken under a transaction lock on it, so two requests
 * for one reference serialize, and the second is told which customer holds it (nothing written).
 */
async function claimReference(tx: Db, owner: Owner, reference: string, self: string | null): Promise<void> {
  await execute(tx, "select pg_advisory_xact_lock(hashtextextended($1, 0))", [
    `customer-reference:${owner.merchantId}:${owner.mode}:${reference}`,
  ]);
  const [holder] = await query<{ id: string }>(
    tx,
    `select id from customers where merchant_id = $1 and mode = $2 and reference = $3 and deleted_at is null
       and id is distinct from $4`,
    [owner.merchantId, owner.mode, reference, self],
  );
  if (holder) throw invalidRequest(`Customer ${holder.id} already has the reference '${reference}'.`, "reference");
}

/** Creates a customer in the caller's transaction. */
export async function createCustomer(tx: Db, owner: Owner, input: CreateCustomerInput): Promise<CustomerRow> {
  if (input.reference !== undefined) await claimReference(tx, owner, input.reference, null);
  const [row] = await query(
    tx,
    `insert into customers (id, merchant_id, mode, name, email, reference, metadata)
     values ($1, $2, $3, $4, $5, $6, $7) returning ${customerRow.columns}`,
    [
      newId("cus_"),
      owner.merchantId,
      owner.mode,
      input.name ?? null,
      input.email ?? null,
      input.reference ?? null,
      JSON.stringify(input.metadata ?? {}),
    ],
  );
  return customerRow.map(row!);
}

/** One of this merchant's and mode's customers, not deleted; anything else is 404. */
export async function getCustomer(db: Db, owner: Owner, id: string, lock = false): Promise<CustomerRow> {
  const [row] = await query(
    db,
    `select ${customerRow.columns} from customers
      where id = $1 and merchant_id = $2 and mode = $3 and deleted_at is null${lock ? " for update" : ""}`,
    [id, owner.merchantId, owner.mode],
  );
  if (!row) throw notFound("customer", id);
  return customerRow.map(row);
}

/**
 * A customer another resource names (a payment's, a deposit address's): one of the merchant's of this mode, not
 * deleted (getCustomer); anything else is a 400 naming the request's field, not a 404 of the resource asked for.
 */
export async function requireCustomer(db: Db, owner: Owner, id: string, param = "customer"): Promise<void> {
  await getCustomer(db, owner, id).catch((err: unknown) => {
    throw err instanceof DomainError && err.type === "not_found"
      ? invalidRequest(`No such customer: '${id}'`, param)
      : err;
  });
}

/** Updates the fields given, in the caller's transaction (schemas.ts: null clears, metadata is replaced). */
export async function updateCustomer(
  tx: Db,
  owner: Owner,
  id: string,
  input: UpdateCustomerInput,
): Promise<CustomerRow> {
  await getCustomer(tx, owner, id, true);
  if (input.reference) await claimReference(tx, owner, input.reference, id);
  const writes = Object.entries({
    name: input.name,
    email: input.email,
    reference: input.reference,
    metadata: input.metadata === undefined ? undefined : JSON.stringify(input.metadata),
  }).filter(([, value]) => value !== undefined);
  const [row] = await query(
    tx,
    `update customers set ${[...writes.map(([column], i) => `${column} = $${i + 2}`), "updated_at = now()"].join(", ")}
      where id = $1 returning ${customerRow.columns}`,
    [id, ...writes.map(([, value]) => value)],
  );
  return customerRow.map(row!);
}

/**
 * Deletes a customer (its row stays for what names it; its reference is free again), unless one of its deposit
 * addresses holds a deposit not yet credited: that is refused (400 naming id) until the deposit confirms or reverses.
 */
export async function deleteCustomer(
  tx: Db,
  owner: Owner,
  id: string,
): Promise<{ id: string; object: "customer"; deleted: true }> {
  await getCustomer(tx, owner, id, true);
  const [waiting] = await query<{ id: string }>(
    tx,
    `select d.id from deposit_addresses a join deposits d on d.deposit_address_id = a.id
      where a.customer_id = $1 and d.status = 'pending' limit 1`,
    [id],
  );
  if (waiting)
    throw invalidRequest(
      `Customer ${id} has a deposit not yet confirmed (${waiting.id}); delete it once the deposit is confirmed.`,
      "id",
    );
  await execute(tx, "update customers set deleted_at = now(), updated_at = now() where id = $1", [id]);
  return { id, object: "customer", deleted: true };
}

/** Newest first, narrowed by `reference` (exact) and `email` (case-insensitive); deleted ones are not listed. */
export async function listCustomers(
  db: Db,
  owner: Owner,
  page: Partial<ListCustomersQuery>,
): Promise<{ rows: CustomerRow[]; hasMore: boolean }> {
  const values: unknown[] = [owner.merchantId, owner.mode];
  const where = ["merchant_id = $1", "mode = $2", "deleted_at is null"];
  if (page.reference !== undefined) where.push(`reference = $${values.push(page.reference)}`);
  if (page.email !== undefined) where.push(`lower(email) = lower($${values.push(page.email)})`);
  const result = await keysetPage(db, {
    table: "customers",
    columns: customerRow.columns,
    filter: { sql: where.join(" and "), values },
    limit: page.limit,
    startingAfter: page.starting_after,
    noun: "customer",
  });
  return { rows: result.rows.map(customerRow.map), hasMore: result.hasMore };
}
