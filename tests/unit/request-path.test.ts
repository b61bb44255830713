import { describe, expect, it } from "vitest";
import { ipLimitKey } from "@/lib/platform/client-ip";
import { decideRequestPath } from "@/lib/http/server/request-path";

describe("the one path every decision of the web server uses", () => {
  it("passes clean paths through unchanged, decoded for decisions", () => {
    expect(decideRequestPath("/checkout/pay_abc?x=1")).toEqual({
      kind: "ok",
      pathname: "/checkout/pay_abc",
      forward: "/checkout/pay_abc?x=1",
    });
    expect(decideRequestPath("/")).toEqual({ kind: "ok", pathname: "/", forward: "/" });
  });

  it(
    "redirects escaped letters, digits and -._~ to the plain spelling (serves it on /v1), " +
      "and leaves other escapes alone",
    () => {
      expect(decideRequestPath("/%63heckout/pay_abc")).toEqual({ kind: "redirect", location: "/checkout/pay_abc" });
      expect(decideRequestPath("/%761/sandbox/chains/eth/reorg?x=1")).toEqual({
        kind: "ok",
        pathname: "/v1/sandbox/chains/eth/reorg",
        forward: "/v1/sandbox/chains/eth/reorg?x=1",
      });
      expect(decideRequestPath("/v1/payments/pay%5Fa%2Db%7E")).toEqual({
        kind: "ok",
        pathname: "/v1/payments/pay_a-b~",
        forward: "/v1/payments/pay_a-b~",
      });
      expect(decideRequestPath("/v1/payments/%ff")).toMatchObject({ kind: "ok", forward: "/v1/payments/%25ff" });
      expect(decideRequestPath("/pay/a%20b")).toMatchObject({
        kind: "ok",
        pathname: "/pay/a b",
        forward: "/pay/a%20b",
      });
    },
  );

  it.each([
    ["/x/../checkout/pay_abc", "/checkout/pay_abc"],
    ["/./checkout/pay_abc", "/checkout/pay_abc"],
    ["//checkout/pay_abc", "/checkout/pay_abc"],
    ["/checkout//pay_abc", "/checkout/pay_abc"],
    ["/checkout/pay_abc/", "/checkout/pay_abc"],
    ["/x/%2e%2e/pay/tok", "/pay/tok"],
    ["/x/.%2E/pay/tok", "/pay/tok"],
    ["/%2e/api/public/checkout/pay_abc/events", "/api/public/checkout/pay_abc/events"],
    ["/../../checkout/pay_abc?a=b", "/checkout/pay_abc?a=b"],
    // Never off-site: a leading "//" would make the Location protocol-relative.
    ["//evil.example/checkout", "/evil.example/checkout"],
    ["/..//evil.example", "/evil.example"],
    ["/.//evil.example/", "/evil.example"],
  ])("redirects %s to %s", (raw, location) => {
    const decision = decideRequestPath(raw);
    expect(decision).toEqual({ kind: "redirect", location });
    if (decision.kind === "redirect") expect(decision.location).toMatch(/^\/(?![/\\])/);
  });

  it.each([
    ["/v1//payments", "/v1/payments"],
    ["/v1/payments/", "/v1/payments"],
    ["/v1/sandbox/payments//simulate?x=1", "/v1/sandbox/payments/simulate"],
    ["/v1/x/../payments", "/v1/payments"],
    ["/v1/./balances", "/v1/balances"],
    ["/v1/..", "/"],
    ["/%761//balances", "/v1/balances"],
    ["/x/../v1/balances", "/v1/balances"],
  ])(
    "answers %s, an API path with empty or dot segments, with a 404 suggesting %s (never a redirect)",
    (raw, suggestion) => {
      const decision = decideRequestPath(raw);
      expect(decision).toEqual({ kind: "unknown-api-path", pathname: raw.split("?")[0], suggestion });
    },
  );

  it("drops a fragment sent in the target before deciding", () => {
    expect(decideRequestPath("/v1/payments#x")).toEqual({
      kind: "ok",
      pathname: "/v1/payments",
      forward: "/v1/payments",
    });
    expect(decideRequestPath("/v1/payment-links/#frag")).toMatchObject({ kind: "unknown-api-path" });
    expect(decideRequestPath("/v1/payments?a=1#b")).toMatchObject({ kind: "ok", forward: "/v1/payments?a=1" });
    expect(decideRequestPath("/checkout/pay_a/#x")).toEqual({ kind: "redirect", location: "/checkout/pay_a" });
  });

  it("decides an absolute-form request target on its path", () => {
    expect(decideRequestPath("http://host.example/v1/balances?x=1")).toEqual({
      kind: "ok",
      pathname: "/v1/balances",
      forward: "/v1/balances?x=1",
    });
    expect(decideRequestPath("https://h:8080")).toEqual({ kind: "ok", pathname: "/", forward: "/" });
    expect(decideRequestPath("http://h?a=1")).toEqual({ kind: "ok", pathname: "/", forward: "/?a=1" });
    expect(decideRequestPath("http://h/v1//payments")).toMatchObject({ kind: "unknown-api-path" });
    expect(decideRequestPath("http://evil.example//x")).toEqual({ kind: "redirect", location: "/x" });
  });

  it.each([
    "/checkout/%",
    "/checkout/%ff",
    "/checkout/%zz",
    "/checkout/%ED%A0%80", // an encoded lone surrogate
    "/checkout/%C0%AE", // an overlong "."
    "/checkout/pay_%00",
    "/checkout/a%2Fb",
    "/checkout/a%5Cb",
    "/checkout\\pay_abc",
    "/v1\\payments",
    "*",
    "example.com:443",
    "mailto:a@b",
  ])("refuses %s", (raw) => {
    expect(decideRequestPath(raw).kind).toBe("refuse");
  });

  it("hands /v1 ids with undecodable escapes to the route as literal text", () => {
    expect(decideRequestPath("/v1/payments/%ff")).toEqual({
      kind: "ok",
      pathname: "/v1/payments/%ff",
      forward: "/v1/payments/%25ff",
    });
    expect(decideRequestPath("/v1/payments/%")).toMatchObject({ kind: "ok", forward: "/v1/payments/%25" });
    expect(decideRequestPath("/v1/payments/pay_%00")).toMatchObject({ kind: "ok", forward: "/v1/payments/pay_%00" });
  });
});

describe("the key per-IP limits count under", () => {
  it("is the address for IPv4, IPv4-mapped IPv6 counting as IPv4", () => {
    expect(ipLimitKey("203.0.113.7")).toBe("203.0.113.7");
    expect(ipLimitKey("::ffff:203.0.113.7")).toBe("203.0.113.7");
    expect(ipLimitKey("::FFFF:cb00:7107")).toBe("203.0.113.7");
  });

  it("is the /64 for IPv6, however the address is spelled", () => {
    const key = "2001:db8:1:2::/64";
    expect(ipLimitKey("2001:db8:1:2::1")).toBe(key);
    expect(ipLimitKey("2001:0db8:0001:0002:ffff:ffff:ffff:ffff")).toBe(key);
    expect(ipLimitKey("2001:DB8:1:2:a:b:c:d")).toBe(key);
    expect(ipLimitKey("2001:db8:1:2::1%eth0")).toBe(key);
    expect(ipLimitKey("2001:db8:1:3::1")).not.toBe(key);
    expect(ipLimitKey("::1")).toBe("0:0:0:0::/64");
    expect(ipLimitKey("2001:db8::")).toBe("2001:db8:0:0::/64");
    expect(ipLimitKey("64:ff9b::192.0.2.33")).toBe("64:ff9b:0:0::/64");
  });

  it("leaves anything else as it is", () => {
    expect(ipLimitKey("unknown")).toBe("unknown");
  });
});
