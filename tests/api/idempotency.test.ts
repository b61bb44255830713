import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { expireIdempotencyKeys } from "@/lib/platform/idempotency/idempotency-keys";
import { getDb } from "@/lib/platform/db/client";
import { api, expectError, newMerchant } from "../helpers/api";

const create = (key: string, idem: string | undefined, body: unknown, server = 0) =>
  api("POST", "/v1/payment-links", { key, body, server, headers: idem ? { "idempotency-key": idem } : {} });

const count = async (key: string) => (await api("GET", "/v1/payment-links", { key })).json.data.length as number;

describe("Idempotency-Key", () => {
  it("same key and parameters → the original status and body again, nothing created twice", async () => {
    const m = await newMerchant();
    const first = await create(m.sandboxKey, "order-1", { amount: "10", description: "A" });
    // Same parameters in another key order and on the other instance.
    const again = await create(m.sandboxKey, "order-1", { description: "A", amount: "10" }, 1);
    expect(first.status).toBe(200);
    expect(again.status).toBe(200);
    expect(again.text).toBe(first.text);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(first.headers.get("idempotent-replayed")).toBeNull();
    expect(await count(m.sandboxKey)).toBe(1);
  });

  it("same key, different parameters → 409 idempotency_conflict and nothing created", async () => {
    const m = await newMerchant();
    await create(m.sandboxKey, "order-2", { amount: "10" });
    const err = expectError(
      await create(m.sandboxKey, "order-2", { amount: "11" }),
      "idempotency_conflict",
      409,
      "Idempotency-Key",
    );
    expect(err.message).toMatch(/different parameters/);
    expect(await count(m.sandboxKey)).toBe(1);
  });

  it("without a key every POST creates", async () => {
    const m = await newMerchant();
    await create(m.sandboxKey, undefined, { amount: "1" });
    await create(m.sandboxKey, undefined, { amount: "1" });
    expect(await count(m.sandboxKey)).toBe(2);
  });

  it("concurrent requests with one key never both execute", async () => {
    const m = await newMerchant();
    const replies = await Promise.all(
      Array.from({ length: 16 }, (_, i) => create(m.sandboxKey, "race", { amount: "7.25" }, i % 2)),
    );
    expect(replies.every((r) => r.status === 200)).toBe(true);
    expect(new Set(replies.map((r) => r.json.id)).size).toBe(1);
    expect(replies.filter((r) => r.headers.get("idempotent-replayed") === "true")).toHaveLength(15);
    expect(await count(m.sandboxKey)).toBe(1);
  });

  it("keys are scoped to merchant and mode", async () => {
    const a = await newMerchant();
    const b = await newMerchant();
    const ra = await create(a.sandboxKey, "shared-key", { amount: "1" });
    const rb = await create(b.sandboxKey, "shared-key", { amount: "2" });
    const rl = await create(a.liveKey, "shared-key", { amount: "3" });
    expect([ra.status, rb.status, rl.status]).toEqual([200, 200, 200]);
    expect(new Set([ra.json.id, rb.json.id, rl.json.id]).size).toBe(3);
  });

  it("validation failures are not stored: a corrected retry with the same key succeeds", async () => {
    const m = await newMerchant();
    expectError(await create(m.sandboxKey, "fix-me", { amount: "abc" }), "invalid_request_error", 400, "amount");
    const ok = await create(m.sandboxKey, "fix-me", { amount: "4" });
    expect(ok.status).toBe(200);
  });

  it("rejects a malformed key", async () => {
    const m = await newMerchant();
    expectError(
      await create(m.sandboxKey, "x".repeat(256), { amount: "1" }),
      "invalid_request_error",
      400,
      "Idempotency-Key",
    );
  });

  it("expires after 24 hours: the key can then be reused, and the sweep deletes old records", async () => {
    const m = await newMerchant();
    const first = await create(m.sandboxKey, "day-old", { amount: "1" });
    await getDb().execute(
      sql`update idempotency_keys set created_at = now() - interval '24 hours 1 minute' where merchant_id = ${m.id}`,
    );
    const second = await create(m.sandboxKey, "day-old", { amount: "2" });
    expect(second.status).toBe(200);
    expect(second.json.id).not.toBe(first.json.id);

    await create(m.sandboxKey, "other-old", { amount: "3" });
    await getDb().execute(
      sql`update idempotency_keys set created_at = now() - interval '25 hours'
          where merchant_id = ${m.id} and key = 'other-old'`,
    );
    expect(await expireIdempotencyKeys(getDb())).toBeGreaterThanOrEqual(1);
    const left = await getDb().execute(sql`select key from idempotency_keys where merchant_id = ${m.id} order by key`);
    expect(left.rows.map((r) => r.key)).toEqual(["day-old"]);
  });
});

describe("a handler's own 4xx (e.g. insufficient balance)", () => {
  it("rolls back its writes, is stored under the key and replayed", async () => {
    const m = await newMerchant();
    const { apiRoute } = await import("@/lib/http/api/route");
    const { ApiError } = await import("@/lib/http/api/errors");
    const { createPaymentLink } = await import("@/lib/money-in/payment-links/create-payment-link");
    const { PAYMENT_LINKS } = await import("@/lib/http/api/operations/payment-links");
    let executions = 0;
    const POST = apiRoute({
      ...PAYMENT_LINKS.create,
      handler: async ({ db, auth, body }) => {
        executions += 1;
        await createPaymentLink(db, auth, body); // written, then undone by the rejection below
        throw new ApiError("insufficient_balance", "Balance too low.", { param: "amount" });
      },
    });
    const call = (amount: string) =>
      POST(
        new Request("http://local/v1/payment-links", {
          method: "POST",
          headers: {
            authorization: `Bearer ${m.sandboxKey}`,
            "content-type": "application/json",
            "idempotency-key": "k-422",
          },
          body: JSON.stringify({ amount }),
        }),
        { params: Promise.resolve({}) },
      );
    const first = await call("5");
    const firstBody = await first.text();
    expect(first.status).toBe(422);
    expect(JSON.parse(firstBody).error).toMatchObject({ type: "insufficient_balance", param: "amount" });
    const again = await call("5");
    expect(again.status).toBe(422);
    expect(await again.text()).toBe(firstBody);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(executions).toBe(1);
    expect((await call("6")).status).toBe(409);
    expect(await count(m.sandboxKey)).toBe(0);
  });
});

describe("a response that holds a secret (webhook endpoint creation)", () => {
  it("is stored only encrypted, and a replay returns the same secret", async () => {
    const m = await newMerchant();
    const register = (server: number) =>
      api("POST", "/v1/webhooks", {
        key: m.sandboxKey,
        server,
        body: { url: "https://8.8.8.8/hooks" },
        headers: { "idempotency-key": "hook-1" },
      });
    const first = await register(0);
    expect(first.status).toBe(200);
    const secret = first.json.secret as string;
    expect(secret).toMatch(/^whsec_[0-9A-Za-z]{43}$/);

    const rows = await getDb().execute(
      sql`select response_body from idempotency_keys where merchant_id = ${m.id} and key = 'hook-1'`,
    );
    const stored = String(rows.rows[0]!.response_body);
    expect(stored).not.toContain(secret.slice("whsec_".length));
    expect(stored).not.toContain(first.json.id);

    const again = await register(1);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(again.text).toBe(first.text);
    expect((await api("GET", "/v1/webhooks", { key: m.sandboxKey })).json.data).toHaveLength(1);
  });
});
