import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/lib/platform/db/client";
import type { Scope } from "@/lib/identity/api-keys/scopes";
import { execute, query } from "@/lib/platform/db/query";
import { api, expectError, newKey, newMerchant, type TestMerchant } from "../helpers/api";

// Customers (docs/API.md#customers): create, retrieve, update, delete and list, each merchant's and mode's own;
// a reference names one customer at a time; bad input is a 400 naming the field, nothing written.
let m: TestMerchant;
let other: TestMerchant;

const create = async (body: Record<string, unknown>, key = m.sandboxKey) => {
  const reply = await api("POST", "/v1/customers", { key, body });
  expect(reply.status, reply.text).toBe(200);
  return reply.json;
};
const listed = async (path: string, key = m.sandboxKey): Promise<string[]> => {
  const reply = await api("GET", path, { key });
  expect(reply.status, reply.text).toBe(200);
  return reply.json.data.map((c: { id: string }) => c.id);
};
const countCustomers = async (merchantId: string) =>
  Number(
    (
      await query<{ n: string }>(getDb(), "select count(*)::text as n from customers where merchant_id = $1", [
        merchantId,
      ])
    )[0]!.n,
  );

beforeAll(async () => {
  [m, other] = await Promise.all([newMerchant("Customers"), newMerchant("Customers, someone else")]);
});

describe("customers", () => {
  it("are created, retrieved, updated and deleted as the merchant's own", async () => {
    const ref = `user-${randomBytes(4).toString("hex")}`;
    const made = await create({
      name: "Ada Lovelace",
      email: "Ada@Example.com",
      reference: ref,
      metadata: { tier: 2 },
    });
    expect(made).toMatchObject({
      object: "customer",
      name: "Ada Lovelace",
      email: "Ada@Example.com",
      reference: ref,
      metadata: { tier: 2 },
    });
    expect(made.id).toMatch(/^cus_[0-9A-Za-z]{24}$/);
    expect(Date.parse(made.created_at)).toBeGreaterThan(Date.now() - 60_000);

    const got = await api("GET", `/v1/customers/${made.id}`, { key: m.sandboxKey });
    expect(got.json).toEqual(made);

    // Left out keeps, null clears, metadata is replaced whole.
    const updated = await api("POST", `/v1/customers/${made.id}`, {
      key: m.sandboxKey,
      body: { email: null, metadata: { vip: true } },
    });
    expect(updated.status, updated.text).toBe(200);
    expect(updated.json).toEqual({ ...made, email: null, metadata: { vip: true } });

    // Another merchant, or the other mode of the same merchant, finds nothing, changes nothing.
    for (const key of [other.sandboxKey, m.liveKey]) {
      expectError(await api("GET", `/v1/customers/${made.id}`, { key }), "not_found", 404, "id");
      expectError(
        await api("POST", `/v1/customers/${made.id}`, { key, body: { name: "Mallory" } }),
        "not_found",
        404,
        "id",
      );
      expectError(await api("DELETE", `/v1/customers/${made.id}`, { key }), "not_found", 404, "id");
    }
    expect((await api("GET", `/v1/customers/${made.id}`, { key: m.sandboxKey })).json.name).toBe("Ada Lovelace");

    const deleted = await api("DELETE", `/v1/customers/${made.id}`, { key: m.sandboxKey });
    expect(deleted.json).toEqual({ id: made.id, object: "customer", deleted: true });
    expectError(await api("GET", `/v1/customers/${made.id}`, { key: m.sandboxKey }), "not_found", 404, "id");
    expect(await listed(`/v1/customers?reference=${ref}`)).toEqual([]);
  });

  it("a reference names one customer per merchant and mode; deleting frees it", async () => {
    const ref = `acct-${randomBytes(4).toString("hex")}`;
    const first = await create({ reference: ref });
    const before = await countCustomers(m.id);
    const again = await api("POST", "/v1/customers", { key: m.sandboxKey, body: { reference: ref, name: "Twin" } });
    expectError(again, "invalid_request_error", 400, "reference");
    expect(again.json.error.message).toContain(first.id);
    expect(await countCustomers(m.id)).toBe(before);

    // Taken by update too; the customer that holds it may keep it.
    const second = await create({ reference: `${ref}-2` });
    expectError(
      await api("POST", `/v1/customers/${second.id}`, { key: m.sandboxKey, body: { reference: ref } }),
      "invalid_request_error",
      400,
      "reference",
    );
    const kept = await api("POST", `/v1/customers/${first.id}`, { key: m.sandboxKey, body: { reference: ref } });
    expect(kept.status, kept.text).toBe(200);

    // Another merchant and the live mode have their own references.
    await create({ reference: ref }, other.sandboxKey);
    await create({ reference: ref }, m.liveKey);

    // Ten requests at once for one new reference: exactly one customer gets it.
    const raced = `race-${randomBytes(4).toString("hex")}`;
    const replies = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        api("POST", "/v1/customers", { key: m.sandboxKey, body: { reference: raced }, server: i % 2 }),
      ),
    );
    expect(replies.filter((r) => r.status === 200)).toHaveLength(1);
    for (const r of replies.filter((r) => r.status !== 200)) expectError(r, "invalid_request_error", 400, "reference");

    await api("DELETE", `/v1/customers/${first.id}`, { key: m.sandboxKey });
    const reborn = await create({ reference: ref });
    expect(await listed(`/v1/customers?reference=${ref}`)).toEqual([reborn.id]);
  });

  it("are listed newest first, by reference exactly and by email in any case, across pages", async () => {
    const tag = randomBytes(4).toString("hex");
    const a = await create({ email: `pat-${tag}@example.com`, reference: `${tag}-a` });
    const b = await create({ email: `PAT-${tag}@EXAMPLE.com`, reference: `${tag}-b` });
    const c = await create({ email: `sam-${tag}@example.com` });
    await create({ email: `pat-${tag}@example.com` }, other.sandboxKey);
    expect(await listed(`/v1/customers?email=Pat-${tag}@example.com`)).toEqual([b.id, a.id]);
    expect(await listed(`/v1/customers?reference=${tag}-a`)).toEqual([a.id]);
    expect(await listed(`/v1/customers?reference=${tag}-A`)).toEqual([]);
    const first = await api("GET", "/v1/customers?limit=2", { key: m.sandboxKey });
    expect(first.json.data.map((x: { id: string }) => x.id)).toEqual([c.id, b.id]);
    expect(first.json.has_more).toBe(true);
    expect((await listed(`/v1/customers?limit=1&starting_after=${b.id}`))[0]).toBe(a.id);
    // Another merchant's customer is no cursor here.
    const theirs = await create({}, other.sandboxKey);
    expectError(
      await api("GET", `/v1/customers?starting_after=${theirs.id}`, { key: m.sandboxKey }),
      "invalid_request_error",
      400,
      "starting_after",
    );
  });

  it("bad input is a 400 naming the field, and nothing is written", async () => {
    const before = await countCustomers(m.id);
    const cases: [Record<string, unknown>, string][] = [
      [{ email: "not an email" }, "email"],
      [{ name: "" }, "name"],
      [{ name: "x".repeat(257) }, "name"],
      [{ reference: " padded " }, "reference"],
      [{ reference: "" }, "reference"],
      [{ metadata: { k: { nested: 1 } } }, "metadata.k"],
      [{ nickname: "Ada" }, "nickname"],
    ];
    for (const [body, param] of cases)
      expectError(await api("POST", "/v1/customers", { key: m.sandboxKey, body }), "invalid_request_error", 400, param);
    expect(await countCustomers(m.id)).toBe(before);
    expectError(
      await api("GET", "/v1/customers?colour=red", { key: m.sandboxKey }),
      "invalid_request_error",
      400,
      "colour",
    );
  });

  it("a payment may name one of the merchant's customers: it says so, and lists by it", async () => {
    const ada = await create({ name: "Payer" });
    const made = await api("POST", "/v1/payments", {
      key: m.sandboxKey,
      body: { amount: "3.000000", chain: "eth", customer: ada.id },
    });
    expect(made.status, made.text).toBe(200);
    expect(made.json.customer).toBe(ada.id);
    expect((await api("GET", `/v1/payments/${made.json.id}`, { key: m.sandboxKey })).json.customer).toBe(ada.id);
    const plain = await api("POST", "/v1/payments", { key: m.sandboxKey, body: { amount: "1.000000" } });
    expect(plain.json.customer).toBeNull();
    const [event] = (await api("GET", "/v1/events?type=payment.awaiting_payment&limit=5", { key: m.sandboxKey })).json
      .data as { data: { object: { id: string; customer: string | null } } }[];
    expect(event!.data.object).toMatchObject({ id: plain.json.id, customer: null });
    expect(await listed(`/v1/payments?customer=${ada.id}`)).toEqual([made.json.id]);

    // Another merchant's customer, the other mode's, an unknown or a deleted one: refused, nothing written.
    const theirs = await create({}, other.sandboxKey);
    const live = await create({}, m.liveKey);
    const gone = await create({});
    await api("DELETE", `/v1/customers/${gone.id}`, { key: m.sandboxKey });
    const before = await query<{ n: string }>(
      getDb(),
      "select count(*)::text as n from payments where merchant_id = $1",
      [m.id],
    );
    for (const customer of [theirs.id, live.id, gone.id, "cus_unknown"])
      expectError(
        await api("POST", "/v1/payments", { key: m.sandboxKey, body: { amount: "1.000000", chain: "eth", customer } }),
        "invalid_request_error",
        400,
        "customer",
      );
    const after = await query<{ n: string }>(
      getDb(),
      "select count(*)::text as n from payments where merchant_id = $1",
      [m.id],
    );
    expect(after[0]!.n).toBe(before[0]!.n);
    // A deleted customer's payments still name it.
    await api("DELETE", `/v1/customers/${ada.id}`, { key: m.sandboxKey });
    expect((await api("GET", `/v1/payments/${made.json.id}`, { key: m.sandboxKey })).json.customer).toBe(ada.id);
  });

  it("migration 0045 gives full-access keys the customers' scopes, and restricted keys nothing", async () => {
    const before = [
      ...["payments", "payment_links", "balances", "payouts", "refunds", "webhooks", "events"].flatMap((f) => [
        `${f}:read`,
        `${f}:write`,
      ]),
    ] as Scope[];
    const full = await newKey(m.id, "sandbox", before);
    const restricted = await newKey(m.id, "sandbox", ["payments:read", "refunds:write"]);
    const migration = readFileSync(path.resolve("db/migrations/0045_customers.sql"), "utf8");
    await execute(getDb(), migration.slice(migration.lastIndexOf("--> statement-breakpoint") + 24));
    const scopesOf = async (id: string) =>
      (await query<{ scopes: string[] }>(getDb(), "select scopes from api_keys where id = $1", [id]))[0]!.scopes;
    expect(await scopesOf(full.id)).toEqual([...before, "customers:read", "customers:write"]);
    expect(await scopesOf(restricted.id)).toEqual(["payments:read", "refunds:write"]);
    expect((await api("GET", "/v1/customers", { key: full.secret })).status).toBe(200);
  });

  it("need the customers scopes: a key without them is refused", async () => {
    const readOnly = await newKey(m.id, "sandbox", ["customers:read"]);
    const none = await newKey(m.id, "sandbox", ["payments:read", "payments:write"]);
    const made = await create({ name: "Scoped" });
    expect((await api("GET", `/v1/customers/${made.id}`, { key: readOnly.secret })).status).toBe(200);
    expectError(await api("POST", "/v1/customers", { key: readOnly.secret, body: { name: "x" } }), "forbidden", 403);
    expectError(await api("DELETE", `/v1/customers/${made.id}`, { key: readOnly.secret }), "forbidden", 403);
    expectError(await api("GET", "/v1/customers", { key: none.secret }), "forbidden", 403);
    expect((await api("GET", `/v1/customers/${made.id}`, { key: m.sandboxKey })).json.name).toBe("Scoped");
  });
});
