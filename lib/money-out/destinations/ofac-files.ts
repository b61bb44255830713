import fs from "node:fs";

/** A file the importer cannot use, with where and why; the CLI prints the message and exits 2. */
export class OfacFileError extends Error {}

/** One SDN entry: its number, name and remarks (continued from sdn_comments.csv when given). */
export interface SdnEntry {
  ent: number;
  name: string;
  remarks: string;
}

interface CsvRecord {
  line: number;
  fields: string[];
}

/**
 * CSV as OFAC writes it: records end with CR LF (or CR, or LF), fields are separated by commas, text is in
 * double quotes (`""` inside is one quote; a lone quote not followed by a separator is kept, as OFAC has
 * published a few). A file may end with the DOS end-of-file byte (0x1A). Hand-written because csv-parse,
 * even with relax_quotes, ends a quoted field at such a lone quote and keeps the opening quote in the value.
 */
export function parseCsv(text: string, file: string): CsvRecord[] {
  const DOS_EOF = String.fromCharCode(0x1a);
  let src = text.replace(/^\uFEFF/, "").trimEnd();
  while (src.endsWith(DOS_EOF)) src = src.slice(0, -1).trimEnd();
  const records: CsvRecord[] = [];
  let fields: string[] = [];
  let line = 1;
  let start = 1;
  let i = 0;
  const atEnd = (j: number) => j >= src.length || src[j] === "," || src[j] === "\r" || src[j] === "\n";
  while (i <= src.length) {
    let value = "";
    if (src[i] === '"') {
      const opened = line;
      i++;
      for (;;) {
        if (i >= src.length) throw new OfacFileError(`${file}: line ${opened}: a quoted field never ends`);
        const c = src[i]!;
        if (c === '"' && src[i + 1] === '"') {
          value += '"';
          i += 2;
        } else if (c === '"' && atEnd(i + 1)) {
          i++;
          break;
        } else {
          if (c === "\n" || (c === "\r" && src[i + 1] !== "\n")) line++;
          value += c;
          i++;
        }
      }
    } else {
      while (!atEnd(i)) value += src[i++];
    }
    fields.push(value);
    if (src[i] === ",") {
      i++;
      continue;
    }
    // End of a record (or of the file).
    if (fields.length > 1 || fields[0] !== "") records.push({ line: start, fields });
    fields = [];
    if (src[i] === "\r" && src[i + 1] === "\n") i++;
    i++;
    line++;
    start = line;
  }
  return records;
}

/** OFAC's empty value is "-0-" (often "-0- "). Remarks keep their spaces: a cut may fall right after one. */
const orEmpty = (field: string) => (field.trim() === "-0-" ? "" : field);

function readText(path: string): string {
  let bytes: Buffer;
  try {
    bytes = fs.readFileSync(path);
  } catch (err) {
    throw new OfacFileError(`cannot read ${path}: ${(err as NodeJS.ErrnoException).code ?? String(err)}`);
  }
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    return bytes.toString("latin1"); // older OFAC files are Windows-1252
  }
}

// ent_num, SDN_Name, SDN_Type, Program, Title, Call_Sign, Vess_type, Tonnage, GRT, Vess_flag, Vess_owner, Remarks
const SDN_COLUMNS = 12;
const COMMENT_COLUMNS = 2; // ent_num, Remarks_Extended

/**
 * Reads OFAC's SDN.CSV (12 columns) and, when given, sdn_comments.csv (2 columns: the remarks that did not
 * fit, continued exactly where SDN.CSV cut them, even mid-word), told apart by their shape. Any file that is
 * not one of these, or a comment for an entry no SDN file has, is an OfacFileError: nothing is imported.
 */
export function readOfacFiles(paths: string[]): SdnEntry[] {
  const entries = new Map<number, SdnEntry>();
  const comments: { ent: number; text: string; where: string }[] = [];
  for (const path of paths) {
    const records = parseCsv(readText(path), path);
    if (records[0] && /^ent_num$/i.test(records[0].fields[0]!.trim())) records.shift(); // a header row
    if (records.length === 0) throw new OfacFileError(`${path}: no records`);
    const width = records[0]!.fields.length;
    if (width !== SDN_COLUMNS && width !== COMMENT_COLUMNS)
      throw new OfacFileError(
        `${path}: line ${records[0]!.line} has ${width} fields; OFAC's SDN.CSV has ${SDN_COLUMNS} ` +
          `(ent_num … Remarks) and sdn_comments.csv ${COMMENT_COLUMNS} (ent_num, Remarks_Extended)`,
      );
    for (const { line, fields } of records) {
      const where = `${path}: line ${line}`;
      if (fields.length !== width) throw new OfacFileError(`${where} has ${fields.length} fields, not ${width}`);
      const entText = fields[0]!.trim();
      if (!/^\d+$/.test(entText)) throw new OfacFileError(`${where}: ent_num "${entText}" is not a number`);
      const ent = Number(entText);
      if (width === COMMENT_COLUMNS) {
        comments.push({ ent, text: fields[1]!, where });
        continue;
      }
      if (entries.has(ent)) throw new OfacFileError(`${where}: ent_num ${ent} appears twice`);
      entries.set(ent, { ent, name: orEmpty(fields[1]!).trim(), remarks: orEmpty(fields[11]!) });
    }
  }
  if (entries.size === 0)
    throw new OfacFileError("no SDN file among the --file arguments (OFAC's SDN.CSV, 12 columns)");
  for (const { ent, text, where } of comments) {
    const entry = entries.get(ent);
    if (!entry)
      throw new OfacFileError(
        `${where}: ent_num ${ent} is in no SDN file given (download SDN.CSV and sdn_comments.csv together)`,
      );
    entry.remarks += orEmpty(text);
  }
  return [...entries.values()];
}
