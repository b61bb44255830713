import { and, eq, sql } from "drizzle-orm";
import { idempotencyKeys } from "@/db/schema";
import type { Db } from "@/lib/db/client";
import type { AuthContext } from "@/lib/keys/authenticate-api-key";
import { ApiError, invalidRequest } from "./errors";

export const IDEMPOTENCY_TTL_HOURS = 24;
const MAX_KEY_LENGTH = 255;

export interface StoredResponse {
  status: number;
  bodyText: string;
  replayed: boolean;
}

export function readIdempotencyKey(req: Request): string | null {
  const key = req.headers.get("idempotency-key");
  if (key === null) return null;
  if (key.length === 0 || key.length > MAX_KEY_LENGTH || !/^[\x21-\x7e]+$/.test(key)) {
    throw invalidRequest(`Idempotency-Key must be 1 to ${MAX_KEY_LENGTH} visible ASCII characters.`, "Idempotency-Key");
  }
  return key;
}

/**
 * Runs `execute` at most once per (merchant, mode, key) within 24 hours, inside transaction `tx`.
 * The key row is inserted first: a concurrent request with the same key blocks on that insert until
 * this transaction ends, then sees the committed row and replays it (or runs, if this one rolled back).
 * Handler errors of the 4xx kind are stored and replayed like successes; a 5xx rolls everything back.
 */
export async function runIdempotently(
  tx: Db,
  auth: AuthContext,
  key: string,
  request: { method: string; path: string; hash: string },
  execute: (db: Db) => Promise<{ status: number; bodyText: string }>,
): Promise<StoredResponse> {
  const owner = and(eq(idempotencyKeys.merchantId, auth.merchantId), eq(idempotencyKeys.mode, auth.mode), eq(idempotencyKeys.key, key));
  await tx.delete(idempotencyKeys).where(and(owner, sql`${idempotencyKeys.createdAt} < now() - make_interval(hours => ${IDEMPOTENCY_TTL_HOURS})`));
  const inserted = await tx
    .insert(idempotencyKeys)
    .values({ merchantId: auth.merchantId, mode: auth.mode, key, requestHash: request.hash, method: request.method, path: request.path })
    .onConflictDoNothing()
    .returning({ key: idempotencyKeys.key });

  if (inserted.length === 0) {
    const [existing] = await tx.select().from(idempotencyKeys).where(owner);
    if (!existing || existing.responseStatus === null || existing.responseBody === null) {
      throw new ApiError("idempotency_conflict", "Another request with this Idempotency-Key is still being processed; retry shortly.", { param: "Idempotency-Key" });
    }
    if (existing.requestHash !== request.hash) {
      throw new ApiError(
        "idempotency_conflict",
        `Idempotency-Key '${key}' was already used with different parameters (${existing.method} ${existing.path}). Use a new key for a new request.`,
        { param: "Idempotency-Key" },
      );
    }
    return { status: existing.responseStatus, bodyText: existing.responseBody, replayed: true };
  }

  const result = await execute(tx);
  await tx.update(idempotencyKeys).set({ responseStatus: result.status, responseBody: result.bodyText }).where(owner);
  return { ...result, replayed: false };
}

/** Periodic sweep: deletes records older than the lifetime, in bounded batches. */
export async function expireIdempotencyKeys(db: Db, batch = 5000): Promise<number> {
  const res = await db.execute(sql`
    delete from idempotency_keys where ctid in (
      select ctid from idempotency_keys
      where created_at < now() - make_interval(hours => ${IDEMPOTENCY_TTL_HOURS}) limit ${batch})`);
  return res.rowCount ?? 0;
}
