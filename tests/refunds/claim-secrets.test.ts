import { readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readEventStream } from "@/lib/cli/read-event-stream";
import { claimRefund, loadRefundClaim } from "@/lib/money-out/refunds/claim-refund";
import { setRefundPolicy } from "@/lib/money-out/refunds/refund-policy";
import { applyRefundPolicy } from "@/lib/money-out/refunds/apply-refund-policy";
import { createWebhookEndpoint } from "@/lib/notify/webhooks/create-webhook-endpoint";
import { deliverWebhooks } from "@/lib/notify/webhooks/deliver-webhook";
import { resetConfig } from "@/lib/platform/config/env";
import { getDb } from "@/lib/platform/db/client";
import { execute, query } from "@/lib/platform/db/query";
import { api, expectError, newKey, newMerchant, type TestMerchant, webUrls } from "../helpers/api";
import { creditedPayment, PAYER } from "../helpers/credited-payment";
import { startReceiver, waitFor } from "../helpers/webhook-receiver";

// A claim link moves the refund to whoever confirms an address on it first: only principals that may create
// refunds see it (docs/REFUNDS.md, "Who sees a claim link"). Each test tries what a reader would.
process.env.WEBHOOKS_ALLOW_PRIVATE_URLS = "true";
resetConfig();

let receiver: Awaited<ReturnType<typeof startReceiver>>;
beforeAll(async () => {
  receiver = await startReceiver();
});
afterAll(() => receiver?.close());

const tokenOf = (url: string) => url.split("/").pop()!;
const claimRefundOf = async (m: TestMerchant, body: Record<string, unknown> = {}) => {
  const paymentId = await creditedPayment(m, ["5.000000"]);
  const created = await api("POST", "/v1/refunds", {
    key: m.sandboxKey,
    body: { payment: paymentId, amount: "1.000000", ...body },
  });
  expect(created.status, created.text).toBe(200);
  return created.json as { id: string; claim_url: string; claim_code: string | null; status: string };
};
const storedEvents = (refundId: string) =>
  query<{ type: string; body: string }>(getDb(), "select type, body from events where object_id = $1", [refundId]);

describe("who sees a refund's claim link", () => {
  it(
    "only the creating response and refunds:write keys: not read-only keys, " +
      "lists, events, the events table or a webhook",
    async () => {
      const m = await newMerchant();
      await createWebhookEndpoint(
        getDb(),
        { merchantId: m.id, mode: "sandbox" },
        { url: receiver.url(`/claims/${m.id}`), events: ["refund.requires_action"] as never },
      );
      const refund = await claimRefundOf(m);
      const token = tokenOf(refund.claim_url);
      expect(refund).toMatchObject({ status: "requires_action", claim_pending: true, claim_code_required: false });
      expect(refund.claim_url).toMatch(/\/refund\/[A-Za-z0-9_-]{43}$/);

      const reader = (await newKey(m.id, "sandbox", ["refunds:read", "events:read", "payments:read"])).secret;
      const writer = (await newKey(m.id, "sandbox", ["refunds:write"])).secret;
      const asReader = (await api("GET", `/v1/refunds/${refund.id}`, { key: reader })).json;
      expect(asReader).toMatchObject({ id: refund.id, claim_url: null, claim_pending: true, claim_code: null });
      expect((await api("GET", `/v1/refunds/${refund.id}`, { key: writer })).json.claim_url).toBe(refund.claim_url);
      for (const key of [reader, writer, m.sandboxKey]) {
        const listed = await api("GET", "/v1/refunds?status=requires_action", { key });
        expect(listed.text).not.toContain(token);
        expect(listed.json.data[0]).toMatchObject({ id: refund.id, claim_url: null, claim_pending: true });
      }
      const events = await api("GET", "/v1/events?type=refund.requires_action", { key: reader });
      expect(events.json.data[0].data.object).toMatchObject({ id: refund.id, claim_url: null, claim_pending: true });
      expect(events.text).not.toContain(token);
      const stored = await storedEvents(refund.id);
      expect(stored.map((e) => e.type).sort()).toEqual(["refund.created", "refund.requires_action"]);
      for (const e of stored) expect(e.body).not.toContain(token);
      const [event] = await query<{ id: string }>(
        getDb(),
        "select id from events where object_id = $1 and type = 'refund.requires_action'",
        [refund.id],
      );
      await deliverWebhooks(getDb(), { eventId: event!.id }, { waitMs: 5_000 });
      const [delivered] = await waitFor(
        () => receiver.at(`/claims/${m.id}`).length > 0 && receiver.at(`/claims/${m.id}`),
      );
      expect(JSON.parse(delivered!.body).data.object).toMatchObject({
        id: refund.id,
        claim_pending: true,
        claim_url: null,
      });
      expect(delivered!.body).not.toContain(token);
    },
  );

  it("an open event stream carries claim_pending, never the link", async () => {
    const m = await newMerchant();
    const controller = new AbortController();
    const res = await fetch(`${webUrls()[0]}/v1/events/stream?types=refund.requires_action`, {
      headers: { authorization: `Bearer ${(await newKey(m.id, "sandbox", ["events:read"])).secret}` },
      signal: controller.signal,
    });
    expect(res.status).toBe(200);
    const stream = readEventStream(res.body!);
    const refund = await claimRefundOf(m);
    const next = await stream.next();
    controller.abort();
    expect(next.value!.event).toBe("refund.requires_action");
    expect(next.value!.data).not.toContain(tokenOf(refund.claim_url));
    expect(JSON.parse(next.value!.data).data.object).toMatchObject({
      id: refund.id,
      claim_pending: true,
      claim_url: null,
    });
  });

  it(
    "a policy refund opens with claim_pending; " + "the merchant's server reads the link with a refunds:write key",
    async () => {
      const m = await newMerchant();
      const paymentId = await creditedPayment(m, ["10.000000", "2.000000"]);
      await setRefundPolicy(getDb(), {
        merchant: m.id,
        mode: "sandbox",
        overpaidAboveUnits: 1_000_000n,
        refundLatePayments: false,
      });
      expect(await applyRefundPolicy(getDb(), paymentId)).toEqual(["overpayment"]);
      const [opened] = await query<{ id: string }>(getDb(), "select id from refunds where payment_id = $1", [
        paymentId,
      ]);
      for (const e of await storedEvents(opened!.id)) expect(JSON.parse(e.body).data.object.claim_url).toBeNull();
      const url = (await api("GET", `/v1/refunds/${opened!.id}`, { key: m.sandboxKey })).json.claim_url;
      expect(await loadRefundClaim(getDb(), tokenOf(url))).toMatchObject({ refund: { id: opened!.id } });
    },
  );

  it("events written before the fix are scrubbed by the migration, every other byte kept", async () => {
    const m = await newMerchant();
    const refund = await claimRefundOf(m);
    const [event] = await query<{ id: string; body: string }>(
      getDb(),
      "select id, body from events where object_id = $1 and type = 'refund.requires_action'",
      [refund.id],
    );
    const old = event!.body.replace('"claim_url":null,"claim_pending":true', `"claim_url":"${refund.claim_url}"`);
    expect(old).toContain(tokenOf(refund.claim_url));
    await execute(getDb(), "update events set body = $2 where id = $1", [event!.id, old]);
    const migration = readFileSync(path.resolve("db/migrations/0041_refund_claim_secrets.sql"), "utf8");
    await execute(getDb(), migration.slice(migration.indexOf("update events")));
    const [after] = await query<{ body: string }>(getDb(), "select body from events where id = $1", [event!.id]);
    expect(after!.body).toBe(event!.body);
  });
});

describe("regenerating a claim link", () => {
  it("kills the old link at once, keeps the window, and needs refunds:write", async () => {
    const m = await newMerchant();
    const refund = await claimRefundOf(m);
    const reader = (await newKey(m.id, "sandbox", ["refunds:read"])).secret;
    const path = `/v1/refunds/${refund.id}/regenerate_claim_url`;
    expectError(await api("POST", path, { key: reader, body: {} }), "forbidden", 403);
    expect(await loadRefundClaim(getDb(), tokenOf(refund.claim_url))).not.toBeNull();

    const renewed = await api("POST", path, { key: m.sandboxKey, body: {} });
    expect(renewed.status, renewed.text).toBe(200);
    expect(renewed.json).toMatchObject({
      id: refund.id,
      status: "requires_action",
      claim_pending: true,
      claim_code: null,
    });
    expect(renewed.json.claim_url).not.toBe(refund.claim_url);
    expect((await api("GET", `/v1/refunds/${refund.id}`, { key: m.sandboxKey })).json).toMatchObject({
      claim_url: renewed.json.claim_url,
      expires_at: (await api("GET", `/v1/refunds/${refund.id}`, { key: reader })).json.expires_at,
    });
    expect(await loadRefundClaim(getDb(), tokenOf(refund.claim_url))).toBeNull();
    await expect(claimRefund(getDb(), tokenOf(refund.claim_url), PAYER)).rejects.toThrow(/no longer valid/);
    const claimed = await claimRefund(getDb(), tokenOf(renewed.json.claim_url), PAYER);
    expect(claimed).toMatchObject({ status: "pending", toAddress: PAYER });
    expectError(await api("POST", path, { key: m.sandboxKey, body: {} }), "invalid_request_error", 400);
    expectError(
      await api("POST", `/v1/refunds/re_nope/regenerate_claim_url`, { key: m.sandboxKey, body: {} }),
      "not_found",
      404,
      "id",
    );
  });
});

describe("a claim that also needs a one-time code", () => {
  it(
    "the code is shown once, stored hashed, asked on claim; " +
      "five wrong codes lock the link until it is regenerated",
    async () => {
      const m = await newMerchant();
      const refund = await claimRefundOf(m, { require_claim_code: true });
      expect(refund).toMatchObject({ claim_code_required: true });
      expect(refund.claim_code).toMatch(/^\d{8}$/);
      const token = tokenOf(refund.claim_url);
      const [row] = await query<{ row: string }>(
        getDb(),
        "select row_to_json(r)::text as row from refunds r where id = $1",
        [refund.id],
      );
      expect(row!.row).not.toContain(refund.claim_code);
      expect((await api("GET", `/v1/refunds/${refund.id}`, { key: m.sandboxKey })).json).toMatchObject({
        claim_code: null,
        claim_code_required: true,
      });
      for (const e of await storedEvents(refund.id)) expect(e.body).not.toContain(refund.claim_code);

      await expect(claimRefund(getDb(), token, PAYER)).rejects.toMatchObject({ param: "code" });
      const wrong = refund.claim_code === "00000000" ? "11111111" : "00000000";
      await expect(claimRefund(getDb(), token, PAYER, wrong)).rejects.toMatchObject({ param: "code" });
      // Twenty guesses at once: each takes an attempt before it is compared, so no more than five are ever checked.
      const guesses = await Promise.allSettled(
        Array.from({ length: 20 }, (_, i) => claimRefund(getDb(), token, PAYER, String(10_000_000 + i))),
      );
      expect(guesses.every((g) => g.status === "rejected")).toBe(true);
      const [count] = await query<{ failures: number }>(
        getDb(),
        "select claim_code_failures as failures from refunds where id = $1",
        [refund.id],
      );
      expect(count!.failures).toBe(5);
      expect((await loadRefundClaim(getDb(), token))!.locked).toBe(true);
      await expect(claimRefund(getDb(), token, PAYER, refund.claim_code!)).rejects.toThrow(/locked/);

      const renewed = (
        await api("POST", `/v1/refunds/${refund.id}/regenerate_claim_url`, { key: m.sandboxKey, body: {} })
      ).json;
      expect(renewed.claim_code).toMatch(/^\d{8}$/);
      await expect(claimRefund(getDb(), tokenOf(renewed.claim_url), PAYER, refund.claim_code!)).rejects.toMatchObject({
        param: "code",
      });
      const spaced = `${renewed.claim_code.slice(0, 4)} ${renewed.claim_code.slice(4)}`;
      const claimed = await claimRefund(getDb(), tokenOf(renewed.claim_url), PAYER, spaced);
      expect(claimed).toMatchObject({ status: "pending", toAddress: PAYER, claimCodeHash: null });
    },
  );

  it(
    "is refused with a precise param on a refund that is not a claim, " + "and can be turned on by regenerating",
    async () => {
      const m = await newMerchant();
      const paymentId = await creditedPayment(m, ["2.000000"]);
      expectError(
        await api("POST", "/v1/refunds", {
          key: m.sandboxKey,
          body: { payment: paymentId, destination: "sender", require_claim_code: true },
        }),
        "invalid_request_error",
        400,
        "require_claim_code",
      );
      expectError(
        await api("POST", "/v1/refunds", {
          key: m.sandboxKey,
          body: { payment: paymentId, require_claim_code: "yes" },
        }),
        "invalid_request_error",
        400,
        "require_claim_code",
      );
      expect((await query(getDb(), "select id from refunds where payment_id = $1", [paymentId])).length).toBe(0);
      const refund = await claimRefundOf(m);
      const renewed = await api("POST", `/v1/refunds/${refund.id}/regenerate_claim_url`, {
        key: m.sandboxKey,
        body: { require_claim_code: true },
      });
      expect(renewed.json).toMatchObject({ claim_code_required: true, claim_code: expect.stringMatching(/^\d{8}$/) });
      await expect(claimRefund(getDb(), tokenOf(renewed.json.claim_url), PAYER)).rejects.toMatchObject({
        param: "code",
      });
    },
  );
});
