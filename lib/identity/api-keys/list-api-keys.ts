import { desc, eq } from "drizzle-orm";
import { apiKeys } from "@/db/schema";
import type { Db } from "@/lib/platform/db/client";
import { serializeApiKey } from "./serialize-api-key";

export async function listApiKeys(db: Db, merchantId: string) {
  const rows = await db
    .select()
    .from(apiKeys)
    .where(eq(apiKeys.merchantId, merchantId))
    .orderBy(desc(apiKeys.createdAt), desc(apiKeys.id));
  return rows.map((row) => serializeApiKey(row));
}
