import type { CustomerObject } from "./customer-object";
import type { CustomerRow } from "./customer-row";

/** A customer as the API returns it (customer-object.ts). */
export function serializeCustomer(row: CustomerRow): CustomerObject {
  return {
    id: row.id,
    object: "customer",
    name: row.name,
    email: row.email,
    reference: row.reference,
    metadata: row.metadata,
    created_at: row.createdAt.toISOString(),
  };
}
