import { customers } from "@/db/schema/customers";
import { rowMapper } from "@/lib/platform/db/row-mapper";

/** A customers row, typed by the schema. */
export type CustomerRow = typeof customers.$inferSelect;

export const customerRow = rowMapper(customers);
