import { type Column, getTableColumns, type InferSelectModel, type Table } from "drizzle-orm";

/**
 * Hot-path row mapping derived from a Drizzle table: the select list and the raw-row → typed-row
 * conversion both come from the table definition, so a column added to db/schema cannot be missing
 * from a mapper. The statements stay plain SQL (lib/platform/db/query.ts says why).
 */
export interface RowMapper<T extends Table> {
  /** Every column's SQL name in definition order: "id, merchant_id, …" (a trusted constant). */
  readonly columns: string;
  /** The same list qualified by a table alias, for joins: "p.id, p.merchant_id, …". */
  prefixed(alias: string): string;
  /** A pg result row (snake_case keys) → the table's select model (camelCase keys); throws on a missing column. */
  map(raw: Record<string, unknown>): InferSelectModel<T>;
  /** The select list and mapper of some columns only (a hot read that needs fewer: less to transfer and parse). */
  pick<K extends keyof InferSelectModel<T> & string>(
    keys: readonly K[],
  ): { columns: string; map(raw: Record<string, unknown>): Pick<InferSelectModel<T>, K> };
}

type FromDriver = (value: unknown) => unknown;

// Column types whose value as pg's default type parsers return it already is Drizzle's select value
// (text/varchar/uuid/enum strings, int2/int4/float numbers, bool, parsed json/jsonb, numeric's string).
const PG_VALUE_IS_FINAL = new Set([
  "PgText",
  "PgVarchar",
  "PgChar",
  "PgUUID",
  "PgEnumColumn",
  "PgInteger",
  "PgSmallInt",
  "PgSerial",
  "PgSmallSerial",
  "PgReal",
  "PgDoublePrecision",
  "PgBoolean",
  "PgJson",
  "PgJsonb",
  "PgNumeric",
]);

// pg returns int8 and numeric as strings; Drizzle's own mapFromDriverValue makes the bigint or number.
const PG_VALUE_NEEDS_DRIZZLE = new Set([
  "PgBigInt64",
  "PgBigInt53",
  "PgBigSerial64",
  "PgBigSerial53",
  "PgNumericNumber",
  "PgNumericBigInt",
]);

/** null: pg's value is used as is. Throws for a type whose pg value has not been checked against Drizzle's. */
function fromDriver(column: Column): FromDriver | null {
  const type = column.columnType;
  if (PG_VALUE_IS_FINAL.has(type)) return null;
  if (PG_VALUE_NEEDS_DRIZZLE.has(type)) return (value) => column.mapFromDriverValue(value);
  // timestamptz arrives as a Date; timestamp without time zone would be parsed in local time by pg.
  if (type === "PgTimestamp" && (column as Column & { withTimezone?: boolean }).withTimezone) return null;
  if (type === "PgArray") {
    // pg parses arrays of its known element types (text[], int8[]…; the elements then need what the base
    // column needs) but returns others (enum[]…) as the literal "{a,b}", which Drizzle parses.
    const base = fromDriver((column as Column & { baseColumn: Column }).baseColumn);
    return (value) =>
      typeof value === "string"
        ? column.mapFromDriverValue(value)
        : base === null
          ? value
          : (value as unknown[]).map((v) => (v === null ? null : base(v)));
  }
  throw new Error(
    `rowMapper: column ${column.name} (${type}) has no checked pg mapping; add it in lib/platform/db/row-mapper.ts`,
  );
}

type MapRow = (raw: Record<string, unknown>) => unknown;

/**
 * Compiles the mapping of one table into a function returning an object literal, so V8 builds every
 * row with one fixed shape, as fast as a hand-written mapper: a loop of keyed stores over the columns
 * measured ~3.5x slower (bench/row-mapper.ts). Only schema identifiers enter the source, JSON-quoted.
 */
function compileMap(sqlNames: string[], keys: string[], converts: (FromDriver | null)[]): MapRow {
  const q = JSON.stringify;
  const locals = converts.map((c, i) => (c ? `const c${i} = converts[${i}];` : "")).join("");
  const reads = sqlNames.map((name, i) => `v${i} = r[${q(name)}]`).join(", ");
  const anyMissing = sqlNames.map((_, i) => `v${i} === undefined`).join(" || ");
  const fields = keys.map((key, i) => `${q(key)}: ${converts[i] ? `v${i} === null ? null : c${i}(v${i})` : `v${i}`}`);
  const source =
    `${locals} return function mapRow(r) { const ${reads}; ` +
    `if (${anyMissing}) missing(r); return { ${fields.join(", ")} }; };`;
  const missing = (raw: Record<string, unknown>) => {
    const name = sqlNames.find((n) => raw[n] === undefined);
    throw new Error(`rowMapper: the row has no ${name}; select the mapper's columns`);
  };
  return new Function("converts", "missing", source)(converts, missing) as MapRow;
}

/** Built once per table at module load: the select list, and a mapper compiled from [sqlName, key, convert]. */
export function rowMapper<T extends Table>(table: T): RowMapper<T> {
  const entries = Object.entries(getTableColumns(table) as Record<string, Column>);
  const compile = (chosen: [string, Column][]) => ({
    columns: chosen.map(([, column]) => column.name).join(", "),
    map: compileMap(
      chosen.map(([, column]) => column.name),
      chosen.map(([key]) => key),
      chosen.map(([, column]) => fromDriver(column)),
    ) as RowMapper<T>["map"],
  });
  const all = compile(entries);
  return {
    ...all,
    prefixed: (alias) => entries.map(([, column]) => `${alias}.${column.name}`).join(", "),
    pick: (keys) => {
      const unknown = keys.filter((key) => !entries.some(([k]) => k === key));
      if (unknown.length) throw new Error(`rowMapper.pick: no column ${unknown.join(", ")}`);
      return compile(entries.filter(([key]) => (keys as readonly string[]).includes(key)));
    },
  };
}
