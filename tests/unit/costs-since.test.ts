import { describe, expect, it } from "vitest";
import { parseSince } from "@/lib/money-out/costs/costs-since";
import { costsSince } from "@/lib/dashboard/views/dashboard-costs";

describe("a costs report's start (CLI --since, dashboard ?since=)", () => {
  it("takes a real UTC day or an ISO 8601 instant, and nothing else", () => {
    expect(parseSince("2026-02-28")?.toISOString()).toBe("2026-02-28T00:00:00.000Z");
    expect(parseSince(" 2026-11-27T10:30:00+01:00 ")?.toISOString()).toBe("2026-11-27T09:30:00.000Z");
    expect(parseSince("2026-02-31")).toBeNull(); // JavaScript alone would read 3 March
    expect(parseSince("last tuesday")).toBeNull();
    expect(parseSince("2026-13-01")).toBeNull();
  });

  it("the dashboard shows the day asked for, or 30 days back when the day is absent or not real", () => {
    const now = Date.parse("2026-11-28T12:00:00Z");
    expect(costsSince("2026-11-01", now)).toBe("2026-11-01");
    expect(costsSince(undefined, now)).toBe("2026-10-29");
    expect(costsSince("2026-02-31", now)).toBe("2026-10-29");
  });
});
