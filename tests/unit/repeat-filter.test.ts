import { describe, expect, it } from "vitest";
import { repeatFilter } from "@/lib/platform/repeat-filter";

describe("a message repeated every pass is logged once a minute", () => {
  it(
    "logs the first time, stays quiet within the minute, " +
      "then logs with the count; a new text or a clear logs at once",
    () => {
      const filter = repeatFilter(60_000);
      expect(filter.pass("out_1", "insufficient TRX", 0)).toBe(0);
      expect(filter.pass("out_1", "insufficient TRX", 1_000)).toBeNull();
      expect(filter.pass("out_1", "insufficient TRX", 30_000)).toBeNull();
      expect(filter.pass("out_2", "insufficient TRX", 30_000)).toBe(0); // another intent: its own
      expect(filter.pass("out_1", "insufficient TRX", 60_000)).toBe(2);
      expect(filter.pass("out_1", "rpc timeout", 61_000)).toBe(0); // a different failure is news
      filter.clear("out_1");
      expect(filter.pass("out_1", "rpc timeout", 62_000)).toBe(0);
    },
  );

  it("forgets the oldest key past its bound", () => {
    const filter = repeatFilter(60_000, 2);
    filter.pass("a", "x", 0);
    filter.pass("b", "x", 0);
    filter.pass("c", "x", 0); // "a" forgotten
    expect(filter.pass("a", "x", 1)).toBe(0);
    expect(filter.pass("c", "x", 1)).toBeNull();
  });
});
