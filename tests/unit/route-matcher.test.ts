import { describe, expect, it } from "vitest";
import { routeMatcher } from "@/lib/http/server/http-metrics";

describe("the metrics' route label", () => {
  const routeOf = routeMatcher([
    "/",
    "/_not-found",
    "/v1/events",
    "/v1/events/[id]",
    "/v1/events/stream",
    "/v1/events/[id]/attempts",
    "/api/auth/[...nextauth]",
    "/checkout/[id]",
  ]);

  it("names the route as built: a static segment before a dynamic one, a catch-all for what it catches", () => {
    expect(routeOf("/")).toBe("/");
    expect(routeOf("/v1/events/stream")).toBe("/v1/events/stream");
    expect(routeOf("/v1/events/evt_123")).toBe("/v1/events/[id]");
    expect(routeOf("/v1/events/evt_123/attempts")).toBe("/v1/events/[id]/attempts");
    expect(routeOf("/api/auth/callback/credentials")).toBe("/api/auth/[...nextauth]");
    expect(routeOf("/checkout/pay_1")).toBe("/checkout/[id]");
  });

  it("puts every path no route serves under one label, so scanners cannot grow the series", () => {
    for (const path of ["/wp-admin", "/v1/events/a/b/c", "/checkout", "/_not-found", "/.env"])
      expect(routeOf(path), path).toBe("unmatched");
  });
});
