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

/** Appends one row to the audit log; call it in the mutation's own transaction. */
export async function recordAudit(
  db: Db,
  actor: Actor,
  entry: { action: string; target?: string; details?: Record<string, unknown> },
): Promise<void> {
  await db.insert(auditLog).values({
    id: newId("aud_"),
    merchantId: actor.merchantId,
    userId: actor.userId,
    action: entry.action,
    target: entry.target ?? null,
    details: entry.details ?? null,
    ip: actor.ip,
    userAgent: actor.userAgent?.slice(0, 512) ?? null,
  });
}
