import { stringify } from "csv-stringify/sync";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { csvRows, neutralize } from "@/lib/reports/exports/export-format";

// Cells made of what CSV must escape and what it must not touch.
const cell = fc.string({
  unit: fc.constantFrom("a", "Z", "0", " ", ",", '"', "\n", "\r", "'", "=", "-", "{", "é", "\u0000", "\t", "€"),
  maxLength: 12,
});

describe("an export's CSV rows", () => {
  it("are csv-stringify's bytes for any cells, a quote, comma, line break or NUL among them", () => {
    fc.assert(
      fc.property(fc.array(fc.array(cell, { minLength: 1, maxLength: 6 }), { maxLength: 20 }), (rows) => {
        expect(csvRows(rows)).toBe(rows.length ? stringify(rows) : "");
      }),
      { numRuns: 2_000 },
    );
  });

  it("a formula is neutralised, the full-width forms too, and a negative amount is left a number", () => {
    expect(["=1+1", "+1", "-x", "@SUM(A1)", "\t=1", "\r=1", "＝1", "＋1", "－1", "＠x"].map(neutralize)).toEqual([
      "'=1+1",
      "'+1",
      "'-x",
      "'@SUM(A1)",
      "'\t=1",
      "'\r=1",
      "'＝1",
      "'＋1",
      "'－1",
      "'＠x",
    ]);
    expect(["-0.500000", "12", "order 1"].map(neutralize)).toEqual(["-0.500000", "12", "order 1"]);
  });
});
