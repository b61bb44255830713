import type { merchants } from "@/db/schema";

export function serializeMerchant(row: typeof merchants.$inferSelect) {
  return {
    id: row.id,
    object: "merchant" as const,
    name: row.name,
    email: row.email,
    created_at: row.createdAt.toISOString(),
  };
}
