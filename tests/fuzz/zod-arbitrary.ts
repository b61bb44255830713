import fc from "fast-check";
import type { z } from "zod";
import { hostileJson, hostileNumber, hostileString, urlSizedHostileString } from "./hostile-values";

/**
 * fast-check arbitraries derived from the API's zod 4 schemas (zod-fast-check does not read zod 4): each
 * value is valid, on a boundary, or hostile, so the service sees both what passes validation and what
 * must be refused. Fields whose schema is an opaque transform (amounts, metadata) take a hint by name.
 */
export type Hints = Record<string, fc.Arbitrary<unknown>>;

// zod 4 keeps its definitions untyped outside its own package; this walker reads them as they are.
type Def = any;
const defOf = (schema: z.ZodType): Def => (schema as unknown as { _zod: { def: Def } })._zod.def;

/** A value for one schema: valid most of the time, a boundary or a hostile value otherwise. */
export function arbitraryFor(schema: z.ZodType, name: string, hints: Hints): fc.Arbitrary<unknown> {
  return fc.oneof({ weight: 6, arbitrary: validFor(schema, name, hints) }, { weight: 2, arbitrary: hostileJson });
}

function validFor(schema: z.ZodType, name: string, hints: Hints): fc.Arbitrary<unknown> {
  const hint = hints[name];
  const def = defOf(schema);
  switch (def.type) {
    case "optional":
      if (hint) return hint;
      return validFor(def.innerType, name, hints);
    case "object":
      return objectFor(schema, hints);
    case "string":
      return hint ?? stringFor(def);
    case "number":
      return hint ?? numberFor(def);
    case "boolean":
      return fc.boolean();
    case "enum": {
      const values = Object.values(def.entries as Record<string, string>);
      return fc.oneof(
        { weight: 4, arbitrary: fc.constantFrom(...values) },
        fc.constantFrom("", values[0]!.toUpperCase()),
      );
    }
    case "array": {
      const max = lengthBound(def.checks, "max_length") ?? 10;
      return fc.array(validFor(def.element, name, hints), { maxLength: max + 1 });
    }
    case "pipe":
      if (hint) return hint;
      return validFor(def.in, name, hints);
    default:
      return hint ?? hostileJson;
  }
}

/** An object: its fields drawn from their schemas, sometimes one missing, one extra, or one retyped. */
function objectFor(schema: z.ZodType, hints: Hints): fc.Arbitrary<Record<string, unknown>> {
  const shape = defOf(schema).shape as Record<string, z.ZodType>;
  const fields = Object.fromEntries(Object.entries(shape).map(([key, s]) => [key, arbitraryFor(s, key, hints)]));
  const required = Object.entries(shape)
    .filter(([, s]) => defOf(s).type !== "optional")
    .map(([key]) => key);
  const base = fc.record(fields, { requiredKeys: required }) as fc.Arbitrary<Record<string, unknown>>;
  const sloppy = fc.record(fields, { requiredKeys: [] }) as fc.Arbitrary<Record<string, unknown>>;
  return fc.oneof(
    { weight: 6, arbitrary: base },
    { weight: 1, arbitrary: sloppy },
    {
      weight: 1,
      arbitrary: fc
        .tuple(
          base,
          fc.oneof(fc.string({ maxLength: 12 }), fc.constantFrom("__proto__", "", "constructor")),
          hostileJson,
        )
        .map(([obj, key, value]) => ({ ...obj, [key || "extra"]: value })),
    },
  );
}

function lengthBound(checks: Def[] | undefined, kind: "min_length" | "max_length"): number | undefined {
  const check = (checks ?? []).map((c) => c._zod.def).find((c) => c.check === kind);
  return check ? (kind === "max_length" ? check.maximum : check.minimum) : undefined;
}

function stringFor(def: Def): fc.Arbitrary<string> {
  const min = lengthBound(def.checks, "min_length") ?? 0;
  const max = lengthBound(def.checks, "max_length") ?? 64;
  const pattern = (def.checks ?? []).map((c: Def) => c._zod.def).find((c: Def) => c.format === "regex")?.pattern;
  const inRange = pattern ? fc.stringMatching(pattern) : fc.string({ minLength: min, maxLength: Math.min(max, 80) });
  return fc.oneof(
    { weight: 4, arbitrary: inRange },
    { weight: 1, arbitrary: fc.constantFrom("a".repeat(max), "a".repeat(max + 1), "a".repeat(Math.max(0, min - 1))) },
    { weight: 1, arbitrary: hostileString },
  );
}

function numberFor(def: Def): fc.Arbitrary<number> {
  const checks = (def.checks ?? []).map((c: Def) => c._zod.def);
  const min = checks.find((c: Def) => c.check === "greater_than")?.value ?? -1e6;
  const max = checks.find((c: Def) => c.check === "less_than")?.value ?? 1e6;
  const integer = checks.some((c: Def) => c.check === "number_format" && /int/.test(c.format));
  const inRange = integer ? fc.integer({ min, max }) : fc.double({ min, max, noNaN: true });
  return fc.oneof(
    { weight: 4, arbitrary: inRange },
    { weight: 1, arbitrary: fc.constantFrom(min, max, min - 1, max + 1, min + 0.5) },
    { weight: 1, arbitrary: hostileNumber },
  );
}

/** A query string for a strict-object query schema: its keys with string values, plus hostile parameters. */
export function queryArbitrary(schema: z.ZodType | undefined, hints: Hints): fc.Arbitrary<string> {
  const shape = schema ? (defOf(schema).shape as Record<string, z.ZodType>) : {};
  const pairs = Object.entries(shape).map(([key, s]) =>
    fc.option(
      validFor(s, key, hints).map((v) => `${key}=${encodeQueryValue(v)}`),
      { nil: undefined, freq: 2 },
    ),
  );
  const hostilePair = fc.oneof(
    fc.constantFrom(
      "limit=1&limit=2",
      "%=1",
      "a%zz=1",
      "limit=%ff",
      "limit=%",
      "x=1",
      "=",
      "&&",
      "limit",
      "limit=1%00",
    ),
    // Heads past node's 16 KiB limit are cut by its HTTP parser (431 or a reset mid-write): kept out.
    fc
      .tuple(fc.constantFrom(...Object.keys(shape), "extra"), urlSizedHostileString)
      .map(([k, v]) => `${k}=${encodeQueryValue(v)}`),
    fc
      .tuple(fc.constantFrom(...Object.keys(shape), "extra"), fc.string({ maxLength: 20 }))
      .map(([k, v]) => `${k}=${v}`),
  );
  return fc
    .tuple(fc.tuple(...pairs), fc.option(hostilePair, { freq: 2 }))
    .map(([valid, hostile]) => [...valid, hostile].filter((p): p is string => typeof p === "string").join("&"));
}

/** Percent-encodes a value for a query string; lone surrogates cannot be UTF-8 so they go as raw %ed%a0%80. */
function encodeQueryValue(value: unknown): string {
  const text = typeof value === "string" ? value : JSON.stringify(value);
  try {
    return encodeURIComponent(text);
  } catch {
    return text.replace(/[^A-Za-z0-9]/g, (c) => `%${(c.charCodeAt(0) & 0xff).toString(16).padStart(2, "0")}`);
  }
}
