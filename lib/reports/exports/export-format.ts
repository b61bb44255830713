import { stringify } from "csv-stringify/sync";
import { z } from "zod";

export const EXPORT_FORMATS = ["csv", "jsonl"] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

/** The query fields every export takes besides its list's filters. */
export const exportFormatQuery = {
  format: z
    .enum(EXPORT_FORMATS, { error: "format must be csv or jsonl" })
    .optional()
    .meta({ description: "`csv` (the default) or `jsonl` (one API object per line)." }),
  timezone: z
    .string()
    .max(64)
    .refine(isTimeZone, { error: "timezone must be an IANA time zone, for example Europe/Berlin" })
    .optional()
    .meta({ description: "CSV only: the IANA time zone its times are written in, with their offset (default UTC)." }),
};

function isTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

// A spreadsheet runs a cell that begins with one of these as a formula (CSV injection, OWASP), the full-width
// forms too (Apple Numbers normalizes them): such a text cell gets a leading apostrophe. Numbers (-0.500000) are
// left as they are.
const FORMULA_START = /^[=+\-@\t\r\uFF1D\uFF0B\uFF0D\uFF20]/;
const NUMBER = /^-?\d+(\.\d+)?$/;

/** A text cell made safe to open in a spreadsheet. */
export function neutralize(value: string): string {
  return FORMULA_START.test(value) && !NUMBER.test(value) ? `'${value}` : value;
}

const offsetFormats = new Map<string, Intl.DateTimeFormat>();

/**
 * An ISO 8601 time (the API writes UTC, `…Z`) in `zone`, with the zone's offset at that moment:
 * 2026-11-15T12:00:00.000Z in Asia/Tokyo is 2026-11-15T21:00:00.000+09:00. Null stays null.
 */
export function inZone(iso: string | null | undefined, zone: string | undefined): string {
  if (!iso) return "";
  if (!zone || zone === "UTC") return iso;
  let format = offsetFormats.get(zone);
  if (!format) {
    format = new Intl.DateTimeFormat("en-US", { timeZone: zone, timeZoneName: "longOffset" });
    offsetFormats.set(zone, format);
  }
  const at = new Date(iso);
  const name = format.formatToParts(at).find((p) => p.type === "timeZoneName")?.value ?? "GMT";
  const offset = name === "GMT" ? "+00:00" : name.slice(3); // "GMT+09:00" → "+09:00"
  const sign = offset.startsWith("-") ? -1 : 1;
  const minutes = sign * (Number(offset.slice(1, 3)) * 60 + Number(offset.slice(4, 6)));
  const local = new Date(at.getTime() + minutes * 60_000).toISOString().slice(0, 23);
  return `${local}${offset}`;
}

// What csv-stringify quotes (a quote, the delimiter, a line break); any other cell it writes as it is.
const TO_QUOTE = /[",\r\n]/;

/**
 * CSV rows (each ending with \n), as csv-stringify writes them: it quotes and escapes every cell that needs it,
 * all of a batch's in one call (one record each, split on a NUL, which no stored text holds), and the cells with
 * nothing to escape are joined around them. Three times faster than handing it whole rows (its per-cell work is
 * the cost, and most cells need none); the same bytes (tests/unit/export-csv.test.ts).
 */
export function csvRows(rows: readonly (readonly string[])[]): string {
  const toQuote: string[][] = [];
  for (const row of rows) for (const cell of row) if (TO_QUOTE.test(cell)) toQuote.push([cell]);
  const quoted = toQuote.length
    ? stringify(toQuote, { record_delimiter: "\u0000", quote_record_delimiter: true, eof: false }).split("\u0000")
    : [];
  if (quoted.length !== toQuote.length) return stringify(rows as string[][]); // a cell held a NUL after all
  let text = "";
  let next = 0;
  for (const row of rows) {
    for (let i = 0; i < row.length; i++) {
      if (i) text += ",";
      text += TO_QUOTE.test(row[i]!) ? quoted[next++] : row[i];
    }
    text += "\n";
  }
  return text;
}
