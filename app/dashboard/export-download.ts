import { redirect } from "next/navigation";
import { auditedExport } from "@/lib/dashboard/actions/audited-export";
import { exportFiltersOf } from "@/lib/dashboard/views/export-filters";
import { actorOf, requirePageUser } from "@/lib/identity/auth/guard";
import { dashboardMode } from "@/lib/identity/auth/mode";
import type { Permission } from "@/lib/identity/users/roles";
import { config } from "@/lib/platform/config/env";
import { getDb } from "@/lib/platform/db/client";
import { EXPORT_CONTENT_TYPES, exportFilename } from "@/lib/reports/exports/export-stream";
import type { ExportResource } from "@/lib/reports/exports/export-sources";

/**
 * A list page's Export (docs/DASHBOARD.md#exports): the CSV of exactly what the page shows for its query, for any
 * role that may read the list, audited as the user's. A query the page refuses goes back to the page.
 */
export async function exportDownload(req: Request, resource: ExportResource, permission: Permission, page: string) {
  const user = await requirePageUser(permission);
  const mode = await dashboardMode();
  const url = new URL(req.url);
  const filters = exportFiltersOf(resource, Object.fromEntries(url.searchParams));
  if (!filters) redirect(`${page}${url.search}`);
  const owner = { merchantId: user.merchantId, mode };
  const stream = await auditedExport(
    getDb(),
    owner,
    { resource, filters, format: "csv", baseUrl: config().publicBaseUrl },
    { actor: await actorOf(user) },
  );
  return new Response(stream, {
    headers: {
      "Content-Type": EXPORT_CONTENT_TYPES.csv,
      "Content-Disposition": `attachment; filename="${exportFilename(resource, mode, "csv")}"`,
      "Cache-Control": "no-store",
      "X-Content-Type-Options": "nosniff",
    },
  });
}
