import type { Mode } from "@/lib/kernel/mode";
import type { Db } from "@/lib/platform/db/client";
import { log } from "@/lib/platform/log";
import { type Actor, actorFor, completeAudit, recordAuditEntry } from "@/lib/identity/users/audit";
import { type ExportRequest, exportStream } from "@/lib/reports/exports/export-stream";

/**
 * An export (the API's or the dashboard's Export) with its audit entry: who, which list, what filter and format,
 * recorded before the first row is sent; how many rows went out, and whether all did, added when it ends.
 */
export async function auditedExport(
  db: Db,
  owner: { merchantId: string; mode: Mode },
  req: Omit<ExportRequest, "onEnd">,
  by: { apiKeyId: string } | { actor: Actor },
): Promise<ReadableStream<Uint8Array>> {
  const actor = actorFor(owner.merchantId, by);
  const auditId = await recordAuditEntry(db, actor, {
    action: `export.${req.resource}`,
    details: {
      mode: owner.mode,
      format: req.format,
      timezone: req.timezone ?? "UTC",
      filters: req.filters,
      rows: null,
      completed: false,
      ...("apiKeyId" in by ? { api_key: by.apiKeyId } : {}),
    },
  });
  return exportStream(db, owner, {
    ...req,
    onEnd: (rows, completed) => {
      completeAudit(db, auditId, { rows, completed }).catch((err: unknown) =>
        log.error("could not complete an export's audit entry", { audit: auditId, rows, error: String(err) }),
      );
    },
  });
}
