import { describe, expect, it } from "vitest";
import { OfacFileError, parseCsv } from "@/lib/money-out/destinations/ofac-files";

const rows = (text: string) => parseCsv(text, "SDN.CSV").map((r) => r.fields);

describe("parseCsv (OFAC's CSV)", () => {
  it("reads a quoted field with a comma and doubled quotes as one field", () => {
    expect(rows('36216,"SMITH, John ""Jack""","-0- "\r\n')).toEqual([["36216", 'SMITH, John "Jack"', "-0- "]]);
  });

  // OFAC has published these; csv-parse (even with relax_quotes) would end the field at the first such
  // quote and keep the opening one, which is why the parser is hand-written.
  it("keeps a lone quote inside a quoted field, commas after it included", () => {
    expect(rows('1,"ALIAS "X" LTD, RIGA",y')).toEqual([["1", 'ALIAS "X" LTD, RIGA', "y"]]);
  });

  it("takes CR LF, CR or LF as record ends; skips a BOM, blank lines and the DOS end-of-file byte", () => {
    expect(rows("\uFEFFa,b\r\nc,d\re,f\n\ng,h\r\n\x1a")).toEqual([
      ["a", "b"],
      ["c", "d"],
      ["e", "f"],
      ["g", "h"],
    ]);
  });

  it("numbers each record by the line it starts on, counting the line breaks inside quotes", () => {
    const records = parseCsv('1,"two\r\nlines"\r\n2,x\r\n\r\n3,y', "SDN.CSV");
    expect(records.map((r) => r.line)).toEqual([1, 3, 5]);
    expect(records[0]!.fields).toEqual(["1", "two\r\nlines"]);
  });

  it("rejects a quoted field that never ends, naming the line it opened on", () => {
    expect(() => parseCsv('1,"ok"\r\n2,"NEVER CLOSED\r\n\x1a', "open.csv")).toThrow(OfacFileError);
    expect(() => parseCsv('1,"ok"\r\n2,"NEVER CLOSED\r\n\x1a', "open.csv")).toThrow(
      "open.csv: line 2: a quoted field never ends",
    );
  });
});
