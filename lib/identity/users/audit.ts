import { eq, sql } from "drizzle-orm";
import { auditLog } from "@/db/schema/users";
import type { Db } from "@/lib/platform/db/client";
import { newId } from "@/lib/kernel/random";

/** Who did it and from where: the request's client IP (set by the web server) and user agent. */
export interface Actor {
  merchantId: string;
  userId: string | null;
  ip: string | null;
  userAgent: string | null;
}

/** Who acts for an audited write made by an API key (named in its details) or a dashboard user. */
export function actorFor(merchantId: string, by: { apiKeyId: string } | { actor: Actor }): Actor {
  return "actor" in by ? by.actor : { merchantId, userId: null, ip: null, userAgent: null };
}

type Entry = { action: string; target?: string; details?: Record<string, unknown> };

/** Appends one row to the audit log; call it in the mutation's own transaction. */
export async function recordAudit(db: Db, actor: Actor, entry: Entry): Promise<void> {
  await recordAuditEntry(db, actor, entry);
}

/** recordAudit, returning the entry's id (for completeAudit). */
export async function recordAuditEntry(db: Db, actor: Actor, entry: Entry): Promise<string> {
  const id = newId("aud_");
  await db.insert(auditLog).values({
    id,
    merchantId: actor.merchantId,
    userId: actor.userId,
    action: entry.action,
    target: entry.target ?? null,
    details: entry.details ?? null,
    ip: actor.ip,
    userAgent: actor.userAgent?.slice(0, 512) ?? null,
  });
  return id;
}

/** Adds what was known only at the end (an export's row count) to an entry's details. */
export async function completeAudit(db: Db, id: string, details: Record<string, unknown>): Promise<void> {
  await db
    .update(auditLog)
    .set({ details: sql`coalesce(${auditLog.details}, '{}'::jsonb) || ${JSON.stringify(details)}::jsonb` })
    .where(eq(auditLog.id, id));
}
