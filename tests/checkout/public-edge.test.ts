import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SpawnedWebServer } from "@/scripts/lib/spawn-web";
import { getDb } from "@/lib/platform/db/client";
import { expirePaymentIfDue } from "@/lib/money-in/payments/expire-payment";
import { STREAMS_PER_CLIENT } from "@/lib/http/server/stream-slots";
import { api, newMerchant } from "../helpers/api";
import {
  freshIpv4,
  freshIpv6Prefix,
  openStream,
  type RawReply,
  rawRequest,
  spawnProxiedWebServer,
} from "../helpers/edge-client";

let web: SpawnedWebServer;
let paymentId: string;
let linkToken: string;

beforeAll(async () => {
  web = await spawnProxiedWebServer();
  const m = await newMerchant("Edge Shop");
  paymentId = (await api("POST", "/v1/payments", { key: m.sandboxKey, body: { amount: "5.000000" } })).json.id;
  const link = await api("POST", "/v1/payment-links", { key: m.sandboxKey, body: { amount: "5" } });
  linkToken = (link.json.url as string).split("/pay/")[1]!;
});
afterAll(async () => {
  await web?.stop();
});

const expectPageHeaders = (reply: RawReply) => {
  expect(reply.headers["content-security-policy"]).toMatch(/frame-ancestors 'none'/);
  expect(reply.headers["x-frame-options"]).toBe("DENY");
  expect(reply.headers["referrer-policy"]).toBe("no-referrer");
};

/** Spends the rest of `ip`'s page budget with plain requests; the next public request must be a 429. */
async function expectBudgetLeft(ip: string, left: number) {
  for (let i = 0; i < left; i++) expect((await rawRequest(web.url, "/checkout/pay_unknown", { ip })).status).toBe(404);
  const refused = await rawRequest(web.url, "/checkout/pay_unknown", { ip });
  expect(refused.status).toBe(429);
  expectPageHeaders(refused);
}

describe("path tricks against the public pages", () => {
  const targets = () => [
    { canonical: `/checkout/${paymentId}`, area: "checkout" },
    { canonical: `/pay/${linkToken}`, area: "pay" },
    { canonical: `/api/public/checkout/${paymentId}/events`, area: "api" },
  ];
  const tricks: [string, (canonical: string) => string][] = [
    ["dot-dot segment", (p) => `/x/..${p}`],
    ["dot-dot above the root", (p) => `/../..${p}`],
    ["percent-encoded dot-dot", (p) => `/x/%2e%2e${p}`],
    ["mixed-case encoded dot-dot", (p) => `/x/.%2E${p}`],
    ["dot segment", (p) => `/.${p}`],
    ["encoded dot segment", (p) => `/%2e${p}`],
    ["double leading slash", (p) => `/${p}`],
    ["double inner slash", (p) => p.replace(/^(\/[^/]+)\//, "$1//")],
    ["trailing slash", (p) => `${p}/`],
    ["trailing dot segment", (p) => `${p}/.`],
  ];

  it("every trick is redirected to the canonical path, never served without the page headers", async () => {
    for (const { canonical } of targets()) {
      for (const [name, trick] of tricks) {
        const reply = await rawRequest(web.url, trick(canonical), { ip: freshIpv4() });
        expect({ name, canonical, status: reply.status, location: reply.headers.location }).toEqual({
          name,
          canonical,
          status: 308,
          location: canonical,
        });
        expect(reply.headers["x-frame-options"]).toBe("DENY");
      }
    }
  });

  it("a path spelled with encoded letters is redirected to its plain spelling, where the limit applies", async () => {
    const spelled = [
      [`/%63heckout/${paymentId}`, `/checkout/${paymentId}`],
      [`/p%61y/${linkToken}`, `/pay/${linkToken}`],
      [`/%61pi/public/checkout/${paymentId}/events`, `/api/public/checkout/${paymentId}/events`],
    ];
    const ip = freshIpv4();
    for (const [path, plain] of spelled) {
      const reply = await rawRequest(web.url, path!, { ip });
      expect({ path, status: reply.status, location: reply.headers.location }).toEqual({
        path,
        status: 308,
        location: plain,
      });
    }
    await expectBudgetLeft(ip, 30);
  });

  it("refuses malformed public paths with a plain 400 page that carries the page headers", async () => {
    for (const path of [
      `/checkout/${paymentId}%00`,
      "/checkout/%ff",
      "/checkout/%",
      "/checkout/%C0%AE%C0%AE/x",
      `/checkout/x%2F..%2F${paymentId}`,
      `/pay/x%5C..%5C${linkToken}`,
      `/checkout\\..\\checkout\\${paymentId}`,
    ]) {
      const reply = await rawRequest(web.url, path, { ip: freshIpv4() });
      expect({ path, status: reply.status }).toEqual({ path, status: 400 });
      expect(reply.headers["content-type"]).toMatch(/^text\/html/);
      expectPageHeaders(reply);
    }
  });

  it("error and not-found pages of the public area carry the page headers", async () => {
    for (const path of ["/checkout", "/pay", "/checkout/pay_doesnotexist", "/pay/nope"]) {
      const reply = await rawRequest(web.url, path, { ip: freshIpv4() });
      expect({ path, status: reply.status }).toEqual({ path, status: 404 });
      expectPageHeaders(reply);
    }
  });

  it("a redirect never points off-site", async () => {
    for (const path of ["//evil.example/checkout", "/..//evil.example/x", "/.//evil.example"]) {
      const reply = await rawRequest(web.url, path, { ip: freshIpv4() });
      expect(reply.status).toBe(308);
      expect(reply.headers.location).toMatch(/^\/evil\.example/);
    }
  });
});

describe("per-IP page limit for IPv6 clients", () => {
  it("counts a whole /64 as one client", async () => {
    const prefix = freshIpv6Prefix();
    for (let i = 1; i <= 30; i++) {
      const reply = await rawRequest(web.url, "/checkout/pay_unknown", { ip: `${prefix}:${i.toString(16)}` });
      expect(reply.status).toBe(404);
    }
    // A new address of the same /64 is the same client; a neighbouring /64 is not.
    expect((await rawRequest(web.url, "/checkout/pay_unknown", { ip: `${prefix}:beef` })).status).toBe(429);
    expect((await rawRequest(web.url, "/checkout/pay_unknown", { ip: `${freshIpv6Prefix()}:1` })).status).toBe(404);
  });

  it("counts an IPv4-mapped IPv6 address as its IPv4 address", async () => {
    const ip = freshIpv4();
    for (let i = 0; i < 15; i++) await rawRequest(web.url, "/checkout/pay_unknown", { ip: `::ffff:${ip}` });
    await expectBudgetLeft(ip, 15);
  });
});

describe("open live-status streams", () => {
  const streamPath = () => `/api/public/checkout/${paymentId}/events`;

  it(`allows ${STREAMS_PER_CLIENT} at once per client, and frees a slot when a client hangs up abruptly`, async () => {
    const ip = freshIpv4();
    const streams = await Promise.all(
      Array.from({ length: STREAMS_PER_CLIENT }, () => openStream(web.url, streamPath(), ip)),
    );
    expect(streams.map((s) => s.status)).toEqual(Array(STREAMS_PER_CLIENT).fill(200));
    const refused = await openStream(web.url, streamPath(), ip);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers["retry-after"])).toBeGreaterThan(0);
    // A HEAD runs the same handler, so it needs a slot too.
    const head = await openStream(web.url, streamPath(), ip, "HEAD");
    expect(head.status).toBe(429);
    // Another client is not affected.
    const other = await openStream(web.url, streamPath(), freshIpv4());
    expect(other.status).toBe(200);
    other.close();

    for (const s of streams) s.close();
    await new Promise((r) => setTimeout(r, 300));
    const again = await Promise.all(
      Array.from({ length: STREAMS_PER_CLIENT }, () => openStream(web.url, streamPath(), ip)),
    );
    expect(again.map((s) => s.status)).toEqual(Array(STREAMS_PER_CLIENT).fill(200));
    for (const s of again) s.close();
  });

  it("frees the slot when the stream ends by itself", async () => {
    // A final payment's stream says its status and "end", and closes: the slots never pile up.
    const m = await newMerchant("Edge Shop, expired");
    const expired = (await api("POST", "/v1/payments", { key: m.sandboxKey, body: { amount: "1.000000" } })).json.id;
    expect(await expirePaymentIfDue(getDb(), expired, new Date(Date.now() + 86_400_000))).toBe("expired");
    const ip = freshIpv4();
    for (let i = 0; i < STREAMS_PER_CLIENT + 3; i++) {
      const reply = await rawRequest(web.url, `/api/public/checkout/${expired}/events`, { ip });
      expect(reply.status).toBe(200);
      expect(reply.text).toContain("event: end");
    }
    // So does an unknown checkout's, which answers 404 at once.
    for (let i = 0; i < STREAMS_PER_CLIENT + 3; i++) {
      const reply = await rawRequest(web.url, "/api/public/checkout/pay_unknown/events", { ip });
      expect(reply.status).toBe(404);
    }
  });
});
