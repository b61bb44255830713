import type { Mode } from "@/lib/kernel/mode";
import type { Db } from "@/lib/platform/db/client";
import { csvRows, type ExportFormat, inZone, neutralize } from "./export-format";
import { EXPORTS, type ExportResource } from "./export-sources";

/** Rows read per batch: each batch is one list query (keyset, no transaction held), encoded and sent. */
const BATCH = 1000;

export interface ExportRequest {
  resource: ExportResource;
  /** The list's filters, as its export query validated them. */
  filters: Record<string, unknown>;
  format: ExportFormat;
  timezone?: string;
  baseUrl: string;
  /** Rows per batch (default 1,000). */
  batchSize?: number;
  /** Once the export ends (`completed`) or the client goes away: how many rows it sent. */
  onEnd?: (rows: number, completed: boolean) => void;
}

export const EXPORT_CONTENT_TYPES: Record<ExportFormat, string> = {
  csv: "text/csv; charset=utf-8",
  jsonl: "application/x-ndjson; charset=utf-8",
};

/** What an export is saved as: `payments-sandbox-2026-12-03.csv`. */
export function exportFilename(resource: ExportResource, mode: Mode, format: ExportFormat, now = new Date()): string {
  return `${resource}-${mode}-${now.toISOString().slice(0, 10)}.${format}`;
}

/**
 * An export streamed batch by batch (docs/EXPORTS.md): memory holds two batches whatever the size (the one being
 * sent and the next, read meanwhile), and no batch is read before the client has taken the one before the
 * current (pull). CSV: a header row, then one row per object, text cells neutralized against formula injection;
 * JSON lines: the API's objects.
 */
export function exportStream(db: Db, owner: { merchantId: string; mode: Mode }, req: ExportRequest) {
  const source = EXPORTS[req.resource];
  const encoder = new TextEncoder();
  const read = (after: string | undefined) =>
    source.batch(db, owner, req.filters, after, req.batchSize ?? BATCH, req.baseUrl, req.format);
  let next: ReturnType<typeof read> | undefined;
  let rows = 0;
  let ended = false;
  const end = (completed: boolean) => {
    if (ended) return;
    ended = true;
    req.onEnd?.(rows, completed);
  };
  const csvCells = (o: Record<string, unknown>) =>
    source.columns.map((column) => {
      const value = o[column];
      if (column === "metadata") return JSON.stringify(value ?? {});
      if (column.endsWith("_at")) return inZone(value as string | undefined, req.timezone);
      return value === null || value === undefined ? "" : neutralize(String(value));
    });
  return new ReadableStream<Uint8Array>({
    start(controller) {
      if (req.format === "csv") controller.enqueue(encoder.encode(csvRows([source.columns])));
    },
    async pull(controller) {
      try {
        const batch = await (next ?? read(undefined));
        // The next batch's query runs while this one is encoded and sent: the database's time and the
        // encoding's overlap (two batches in memory at most).
        next = batch.hasMore ? read(batch.objects.at(-1)!.id) : undefined;
        next?.catch(() => {}); // awaited by the next pull; a cancelled export never awaits it
        if (batch.objects.length) {
          const text =
            req.format === "csv"
              ? csvRows(batch.objects.map(csvCells))
              : batch.objects.map((o) => `${JSON.stringify(o)}\n`).join("");
          controller.enqueue(encoder.encode(text));
          rows += batch.objects.length;
        }
        if (!batch.hasMore) {
          controller.close();
          end(true);
        }
      } catch (err) {
        end(false);
        controller.error(err);
      }
    },
    cancel() {
      end(false);
    },
  });
}
