import { describe, expect, it } from "vitest";
import { loadConfig } from "@/lib/platform/config/env";
import { getDb } from "@/lib/platform/db/client";
import { query } from "@/lib/platform/db/query";
import { checkWebhookUrl } from "@/lib/notify/webhooks/check-webhook-url";
import { createWebhookEndpoint } from "@/lib/notify/webhooks/create-webhook-endpoint";
import { api, expectError, newMerchant } from "../helpers/api";

const register = (key: string, body: unknown) => api("POST", "/v1/webhooks", { key, body });

// The test servers run with the sandbox switch on (for the loopback receivers), so the refusal table uses
// live keys, which the switch never affects.
describe("POST /v1/webhooks: SSRF-safe URLs", () => {
  it.each([
    ["http://8.8.8.8/hook", /https/],
    ["ftp://8.8.8.8/hook", /https/],
    ["not a url", /absolute URL/],
    ["https://user:pw@8.8.8.8/hook", /credentials/],
    ["https://localhost/hook", /local name/],
    ["https://api.localhost/hook", /local name/],
    ["https://metadata.google.internal/computeMetadata/v1/", /local name/],
    ["https://127.0.0.1/hook", /127\.0\.0\.1, which is not a public address/],
    ["https://10.1.2.3/hook", /not a public address/],
    ["https://172.16.0.1/hook", /not a public address/],
    ["https://172.31.255.255/hook", /not a public address/],
    ["https://192.168.1.10/hook", /not a public address/],
    ["https://100.64.0.1/hook", /not a public address/],
    ["https://169.254.169.254/latest/meta-data/", /not a public address/],
    ["https://0.0.0.0/hook", /not a public address/],
    ["https://224.0.0.1/hook", /not a public address/],
    ["https://240.0.0.1/hook", /not a public address/],
    ["https://255.255.255.255/hook", /not a public address/],
    ["https://198.18.0.1/hook", /not a public address/],
    ["https://2130706433/hook", /127\.0\.0\.1/], // decimal
    ["https://0177.0.0.1/hook", /127\.0\.0\.1/], // octal
    ["https://0x7f.0x0.0x0.0x1/hook", /127\.0\.0\.1/], // hex
    ["https://0xa9fea9fe/hook", /169\.254\.169\.254/], // hex metadata
    ["https://[::1]/hook", /not a public address/],
    ["https://[::]/hook", /not a public address/],
    ["https://[fd00:ec2::254]/hook", /not a public address/],
    ["https://[fe80::1]/hook", /not a public address/],
    ["https://[::ffff:127.0.0.1]/hook", /not a public address/],
    ["https://[::ffff:8.8.8.8]/hook", /not a public address/],
    ["https://[ff02::1]/hook", /not a public address/],
    // Every IPv6 form that embeds an IPv4 address (security review 2026-12, finding 6).
    ["https://[::7f00:1]/hook", /not a public address/], // IPv4-compatible ::/96
    ["https://[::ffff:0:7f00:1]/hook", /not a public address/], // SIIT ::ffff:0:0:0/96
    ["https://[64:ff9b::a00:1]/hook", /not a public address/], // NAT64
    ["https://[2002:7f00:1::1]/hook", /not a public address/], // 6to4
    ["https://[2001:0:4136:e378:8000:63bf:3fff:fdd2]/hook", /not a public address/], // Teredo
    ["https://[5f00::1]/hook", /not a public address/], // SRv6 SIDs
    ["https://[3fff::1]/hook", /not a public address/], // documentation (RFC 9637)
    ["https://hooks.example.invalid/hook", /does not resolve/],
  ])("refuses %s (live key)", async (url, message) => {
    const m = await newMerchant();
    const err = expectError(await register(m.liveKey, { url }), "invalid_request_error", 400, "url");
    expect(err.message).toMatch(message);
  });

  it.each(["https://8.8.8.8/hooks/usdt", "https://[2606:4700:4700::1111]/hook", "https://1.1.1.1:8443/path?x=1"])(
    "accepts %s",
    async (url) => {
      const m = await newMerchant();
      const reply = await register(m.sandboxKey, { url });
      expect(reply.status).toBe(200);
    },
  );
});

describe("POST /v1/webhooks: the endpoint object", () => {
  it(
    "returns the webhook endpoint object with the secret once; " + "lists never show it; it is stored encrypted",
    async () => {
      const m = await newMerchant();
      const created = (
        await register(m.sandboxKey, { url: "https://8.8.8.8/hooks", events: ["payment.confirmed", "payout.failed"] })
      ).json;
      expect(Object.keys(created).sort()).toEqual(["active", "created_at", "events", "id", "object", "secret", "url"]);
      expect(created).toMatchObject({
        object: "webhook_endpoint",
        url: "https://8.8.8.8/hooks",
        events: ["payment.confirmed", "payout.failed"],
        active: true,
      });
      expect(created.id).toMatch(/^wh_[0-9A-Za-z]{24}$/);
      expect(created.secret).toMatch(/^whsec_[0-9A-Za-z]{43}$/);

      const list = await api("GET", "/v1/webhooks", { key: m.sandboxKey });
      expect(list.json.object).toBe("list");
      expect(list.json.has_more).toBe(false);
      expect(list.json.data).toEqual([
        {
          id: created.id,
          object: "webhook_endpoint",
          url: "https://8.8.8.8/hooks",
          events: ["payment.confirmed", "payout.failed"],
          active: true,
          created_at: created.created_at,
        },
      ]);
      expect(list.text).not.toContain("whsec_");

      const [stored] = await query<{ encrypted_secret: string }>(
        getDb(),
        "select encrypted_secret from webhook_endpoints where id = $1",
        [created.id],
      );
      expect(stored!.encrypted_secret).not.toContain(created.secret.slice(6));
      expect(stored!.encrypted_secret).toMatch(/^v1\./);
    },
  );

  it("events: omitted or [] means all; unknown types are refused", async () => {
    const m = await newMerchant();
    expect((await register(m.sandboxKey, { url: "https://8.8.8.8/a" })).json.events).toEqual([]);
    expect((await register(m.sandboxKey, { url: "https://8.8.8.8/b", events: [] })).json.events).toEqual([]);
    const err = expectError(
      await register(m.sandboxKey, { url: "https://8.8.8.8/c", events: ["payment.confirmed", "payment.refunded"] }),
      "invalid_request_error",
      400,
      "events.1",
    );
    expect(err.message).toMatch(/payout\.blocked/);
    expectError(
      await register(m.sandboxKey, { url: "https://8.8.8.8/d", events: "payment.confirmed" }),
      "invalid_request_error",
      400,
      "events",
    );
    expectError(await register(m.sandboxKey, {}), "invalid_request_error", 400, "url");
  });

  it("the list pages with has_more and is isolated by merchant and mode", async () => {
    const m = await newMerchant();
    const other = await newMerchant();
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.push((await register(m.sandboxKey, { url: `https://8.8.8.8/${i}` })).json.id);
    const page = (await api("GET", "/v1/webhooks?limit=2", { key: m.sandboxKey })).json;
    expect(page.data.map((w: { id: string }) => w.id)).toEqual([ids[2], ids[1]]);
    expect(page.has_more).toBe(true);
    const rest = (await api("GET", `/v1/webhooks?limit=2&starting_after=${ids[1]}`, { key: m.sandboxKey })).json;
    expect(rest.data.map((w: { id: string }) => w.id)).toEqual([ids[0]]);
    expect(rest.has_more).toBe(false);
    expect((await api("GET", "/v1/webhooks", { key: m.liveKey })).json.data).toEqual([]);
    expect((await api("GET", "/v1/webhooks", { key: other.sandboxKey })).json.data).toEqual([]);
    expectError(
      await api("GET", `/v1/webhooks?starting_after=${ids[0]}`, { key: other.sandboxKey }),
      "invalid_request_error",
      400,
      "starting_after",
    );
  });
});

describe("host names are judged by every address they resolve to", () => {
  const resolver = (table: Record<string, string[]>) => async (host: string) => {
    if (!(host in table)) throw new Error("ENOTFOUND");
    return table[host]!;
  };

  it("a name resolving only to public addresses is accepted; one private address among them is refused", async () => {
    const resolve = resolver({
      "hooks.shop.test": ["52.10.20.30", "2600:1f18::1"],
      "rebind.shop.test": ["52.10.20.30", "10.0.0.7"],
    });
    expect((await checkWebhookUrl("https://hooks.shop.test/x", { allowPrivate: false, resolve })).ok).toBe(true);
    const refused = await checkWebhookUrl("https://rebind.shop.test/x", { allowPrivate: false, resolve });
    expect(refused).toEqual({
      ok: false,
      message: "url host 'rebind.shop.test' resolves to 10.0.0.7, which is not a public address",
    });
    // The same check at each delivery: a name that later resolves to an IPv4-embedding IPv6 form is refused.
    for (const address of ["::7f00:1", "::ffff:0:7f00:1", "::a9fe:a9fe", "::ffff:0:a00:1"]) {
      const later = await checkWebhookUrl("https://moved.shop.test/x", {
        allowPrivate: false,
        resolve: resolver({ "moved.shop.test": [address] }),
      });
      expect(later, address).toMatchObject({ ok: false, message: expect.stringMatching(/not a public address/) });
    }
  });

  it(
    "WEBHOOKS_ALLOW_PRIVATE_URLS=true lets sandbox endpoints use http and loopback; " + "live endpoints never",
    async () => {
      const m = await newMerchant();
      const config = loadConfig({ ...process.env, WEBHOOKS_ALLOW_PRIVATE_URLS: "true" });
      const local = await createWebhookEndpoint(
        getDb(),
        { merchantId: m.id, mode: "sandbox" },
        { url: "http://127.0.0.1:4000/hook" },
        { config },
      );
      expect(local.row.url).toBe("http://127.0.0.1:4000/hook");
      await expect(
        createWebhookEndpoint(
          getDb(),
          { merchantId: m.id, mode: "live" },
          { url: "http://127.0.0.1:4000/hook" },
          { config },
        ),
      ).rejects.toMatchObject({ param: "url" });
      await expect(
        createWebhookEndpoint(
          getDb(),
          { merchantId: m.id, mode: "live" },
          { url: "https://127.0.0.1/hook" },
          { config },
        ),
      ).rejects.toMatchObject({ param: "url" });
      await expect(
        createWebhookEndpoint(
          getDb(),
          { merchantId: m.id, mode: "sandbox" },
          { url: "http://127.0.0.1:4000/hook" },
          { config: loadConfig({ ...process.env, WEBHOOKS_ALLOW_PRIVATE_URLS: "false" }) },
        ),
      ).rejects.toMatchObject({ param: "url" });
    },
  );
});

describe("idempotent registration", () => {
  it("a retry with the same Idempotency-Key returns the same endpoint (and secret) without a second one", async () => {
    const m = await newMerchant();
    const headers = { "idempotency-key": "wh-1" };
    const a = await api("POST", "/v1/webhooks", { key: m.sandboxKey, body: { url: "https://8.8.8.8/x" }, headers });
    const b = await api("POST", "/v1/webhooks", {
      key: m.sandboxKey,
      body: { url: "https://8.8.8.8/x" },
      headers,
      server: 1,
    });
    expect(b.text).toBe(a.text);
    expect((await api("GET", "/v1/webhooks", { key: m.sandboxKey })).json.data).toHaveLength(1);
  });
});
