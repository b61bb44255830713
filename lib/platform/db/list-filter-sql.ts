import type { ListFilters } from "@/lib/kernel/schemas/list-filters";

const BOUNDS = { gt: ">", gte: ">=", lt: "<", lte: "<=" } as const;

/**
 * The SQL conditions of a list's filters (lib/kernel/schemas/list-filters.ts), their values appended to `values`
 * ($n numbered after what is there). Tables name the columns `status`, `chain`, `created_at` and `metadata`
 * (jsonb); a metadata value is compared as text, so a number or a boolean is found by how it is written.
 */
export function listFilterSql(filters: ListFilters, values: unknown[]): string[] {
  const where: string[] = [];
  const param = (value: unknown) => `$${values.push(value)}`;
  if (filters.status) where.push(`status = ${param(filters.status)}`);
  if (filters.chain) where.push(`chain = ${param(filters.chain)}`);
  for (const [bound, op] of Object.entries(BOUNDS) as [keyof typeof BOUNDS, string][]) {
    const at = filters.created?.[bound];
    if (at) where.push(`created_at ${op} ${param(at)}`);
  }
  for (const [key, value] of Object.entries(filters.metadata ?? {}))
    where.push(`metadata ->> ${param(key)}::text = ${param(value)}::text`);
  return where;
}
