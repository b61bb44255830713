import { describe, expect, it } from "vitest";
import { getDb } from "@/lib/platform/db/client";
import { revokeApiKey } from "@/lib/identity/api-keys/revoke-api-key";
import { rotateApiKey } from "@/lib/identity/api-keys/rotate-api-key";
import { api, expectError, expectRefusedWithin, newKey, newMerchant } from "../helpers/api";

describe("authentication", () => {
  it("401 unauthorized without an Authorization header", async () => {
    const reply = await api("GET", "/v1/payment-links");
    const err = expectError(reply, "unauthorized", 401);
    expect(err.message).toMatch(/No API key/);
  });

  it.each([
    ["not a bearer scheme", "Basic dXNlcjpwYXNz"],
    ["bearer without a token", "Bearer"],
    ["unknown prefix", "Bearer sk_test_abcdef"],
    ["right prefix, wrong length", "Bearer mnt_test_sk_short"],
    ["well-formed but unknown key", `Bearer mnt_test_sk_${"A".repeat(43)}`],
    ["well-formed unknown live key", `Bearer mnt_live_sk_${"b".repeat(43)}`],
  ])("401 unauthorized for %s", async (_case, header) => {
    const reply = await api("GET", "/v1/payment-links", { headers: { authorization: header } });
    expectError(reply, "unauthorized", 401);
    expect(reply.headers.get("www-authenticate")).toMatch(/^Bearer/);
  });

  it("accepts a valid key and records last_used_at", async () => {
    const m = await newMerchant();
    const reply = await api("GET", "/v1/payment-links", { key: m.sandboxKey });
    expect(reply.status).toBe(200);
    expect(reply.json).toEqual({ object: "list", data: [] });
    const { listApiKeys } = await import("@/lib/identity/api-keys/list-api-keys");
    const keys = await listApiKeys(getDb(), m.id);
    expect(keys.find((k) => k.id === m.sandboxKeyId)!.last_used_at).not.toBeNull();
    expect(keys.find((k) => k.id === m.liveKeyId)!.last_used_at).toBeNull();
  });

  it("a revoked key stops working at once, on every instance, though each had it cached", async () => {
    const m = await newMerchant();
    for (const server of [0, 1, 0, 1])
      expect((await api("GET", "/v1/payment-links", { key: m.sandboxKey, server })).status).toBe(200);
    await revokeApiKey(getDb(), m.sandboxKeyId);
    for (const server of [0, 1]) await expectRefusedWithin(m.sandboxKey, { path: "/v1/payment-links", server });
    // The merchant's other key is unaffected.
    expect((await api("GET", "/v1/payment-links", { key: m.liveKey })).status).toBe(200);
  });

  it("a rotated key stops working at once on every instance that had it cached; its successor works", async () => {
    const m = await newMerchant();
    const key = await newKey(m.id, "sandbox");
    for (const server of [0, 1, 0, 1])
      expect((await api("GET", "/v1/payment-links", { key: key.secret, server })).status).toBe(200);
    const rotated = await rotateApiKey(getDb(), key.id);
    for (const server of [0, 1]) await expectRefusedWithin(key.secret, { path: "/v1/payment-links", server });
    for (const server of [0, 1])
      expect((await api("GET", "/v1/payment-links", { key: rotated.secret, server })).status).toBe(200);
  });

  it("rotation: the new key works, the old one is rejected, scopes carry over", async () => {
    const m = await newMerchant();
    const restricted = await newKey(m.id, "sandbox", ["payment_links:read"]);
    const rotated = await rotateApiKey(getDb(), restricted.id);
    expect(rotated.replaces).toBe(restricted.id);
    expect(rotated.secret).toMatch(/^mnt_test_sk_[0-9A-Za-z]{43}$/);
    expectError(await api("GET", "/v1/payment-links", { key: restricted.secret }), "unauthorized", 401);
    expect((await api("GET", "/v1/payment-links", { key: rotated.secret })).status).toBe(200);
    expectError(
      await api("POST", "/v1/payment-links", { key: rotated.secret, body: { amount: "1" } }),
      "forbidden",
      403,
    );
    // Rotating an already rotated key is refused: it would resurrect nothing.
    await expect(rotateApiKey(getDb(), restricted.id)).rejects.toThrow(/no active key/);
  });
});

describe("scopes", () => {
  it("an event's delivery attempts need webhooks:read as well as events:read", async () => {
    const m = await newMerchant();
    const payment = await api("POST", "/v1/payments", { key: m.sandboxKey, body: { amount: "1.000000" } });
    const events = (await api("GET", "/v1/events", { key: m.sandboxKey })).json.data;
    const event = events.find((e: { data: { object: { id: string } } }) => e.data.object.id === payment.json.id);
    const eventsOnly = await newKey(m.id, "sandbox", ["events:read"]);
    const both = await newKey(m.id, "sandbox", ["events:read", "webhooks:read"]);
    const path = `/v1/events/${event.id}/attempts`;
    expect((await api("GET", `/v1/events/${event.id}`, { key: eventsOnly.secret })).status).toBe(200);
    const denied = expectError(await api("GET", path, { key: eventsOnly.secret }), "forbidden", 403);
    expect(denied.message).toContain("webhooks:read");
    expect((await api("GET", path, { key: both.secret })).status).toBe(200);
  });

  it("403 forbidden when the key lacks the scope; write implies read", async () => {
    const m = await newMerchant();
    const readOnly = await newKey(m.id, "sandbox", ["payment_links:read"]);
    const writeOnly = await newKey(m.id, "sandbox", ["payment_links:write"]);
    const otherFamily = await newKey(m.id, "sandbox", ["payments:write", "payouts:write"]);

    const denied = expectError(
      await api("POST", "/v1/payment-links", { key: readOnly.secret, body: { amount: "5" } }),
      "forbidden",
      403,
    );
    expect(denied.message).toContain("payment_links:write");
    expect((await api("GET", "/v1/payment-links", { key: readOnly.secret })).status).toBe(200);

    expect((await api("POST", "/v1/payment-links", { key: writeOnly.secret, body: { amount: "5" } })).status).toBe(200);
    expect((await api("GET", "/v1/payment-links", { key: writeOnly.secret })).status).toBe(200);

    expectError(await api("GET", "/v1/payment-links", { key: otherFamily.secret }), "forbidden", 403);
    // Nothing was written by the forbidden request.
    const list = await api("GET", "/v1/payment-links", { key: m.sandboxKey });
    expect(list.json.data).toHaveLength(1);
  });
});
