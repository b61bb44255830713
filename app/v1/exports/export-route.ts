import { auditedExport } from "@/lib/dashboard/actions/audited-export";
import { config } from "@/lib/platform/config/env";
import { EXPORT_CONTENT_TYPES, exportFilename } from "@/lib/reports/exports/export-stream";
import type { ExportFormat } from "@/lib/reports/exports/export-format";
import type { ExportResource } from "@/lib/reports/exports/export-sources";
import { EXPORT_OPERATIONS } from "@/lib/http/api/operations/exports";
import { apiRoute } from "@/lib/http/api/route";

/** GET /v1/exports/{resource}: the list's filters in, the file streamed out (docs/API.md#exports). */
export function exportRoute(resource: ExportResource) {
  return apiRoute({
    ...EXPORT_OPERATIONS[resource],
    handler: async ({ db, auth, query }) => {
      const {
        format = "csv",
        timezone,
        ...filters
      } = query as Record<string, unknown> & {
        format?: ExportFormat;
        timezone?: string;
      };
      const stream = await auditedExport(
        db,
        auth,
        { resource, filters, format, timezone, baseUrl: config().publicBaseUrl },
        { apiKeyId: auth.keyId },
      );
      return {
        body: null,
        stream,
        file: { contentType: EXPORT_CONTENT_TYPES[format], filename: exportFilename(resource, auth.mode, format) },
      };
    },
  });
}
