import type { ListFilters } from "@/lib/kernel/schemas/list-filters";
import { metadataJsonPath } from "./metadata-path";

const BOUNDS = { gt: ">", gte: ">=", lt: "<", lte: "<=" } as const;

/**
 * The SQL conditions of a list's filters (lib/kernel/schemas/list-filters.ts), their values appended to `values`
 * ($n numbered after what is there). Tables name the columns `status`, `chain`, `created_at` and `metadata`
 * (jsonb); a metadata value is found as the string and as the number or boolean it spells (the GIN index answers).
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
    where.push(`metadata @? ${param(metadataJsonPath(key, value))}::jsonpath`);
  return where;
}
