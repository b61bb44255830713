import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { pageLinks } from "@/lib/dashboard/views/page-cursor";
import { loadEventDetail, loadEventsPage } from "@/lib/dashboard/views/events-pages";
import { loadPaymentDetail } from "@/lib/dashboard/views/payment-detail";
import {
  mineForPayment,
  payInSandbox,
  NO_CHAIN_GRANT,
  reorgForPayment,
  resendFromDashboard,
  SANDBOX_ONLY,
} from "@/lib/dashboard/actions/payment-actions";
import { loadPaymentsPage, parsePaymentFilters } from "@/lib/dashboard/views/payments-list";
import { resetConfig } from "@/lib/platform/config/env";
import { getDb } from "@/lib/platform/db/client";
import { query } from "@/lib/platform/db/query";
import type { Mode } from "@/lib/kernel/mode";
import { listPayments } from "@/lib/money-in/payments/list-payments";
import type { Actor } from "@/lib/identity/users/audit";
import { api, newMerchant, type TestMerchant } from "../helpers/api";
import { until } from "../helpers/started-service";
import { startReceiver } from "../helpers/webhook-receiver";
import { deliverWebhooks } from "@/lib/notify/webhooks/deliver-webhook";

// The dashboard's payments and events pages read through the lib the /v1 lists use; these check what they
// narrow to, how they page, and that nothing of another merchant or mode is ever reachable.

let receiver: Awaited<ReturnType<typeof startReceiver>>;
let m: TestMerchant;
let other: TestMerchant;
const db = () => getDb();
const owner = (mode: Mode = "sandbox") => ({ merchantId: m.id, mode });
const actor = (merchantId = m.id): Actor => ({ merchantId, userId: null, ip: "10.0.0.1", userAgent: "vitest" });
const create = async (body: Record<string, unknown>, key = m.sandboxKey) => {
  const reply = await api("POST", "/v1/payments", { key, body });
  expect(reply.status, reply.text).toBe(200);
  return reply.json as { id: string; deposit_address: string | null; chain: string | null; amount: string };
};

beforeAll(async () => {
  // Resend runs in this process: sandbox endpoints may be the loopback receiver, as the web servers allow.
  process.env.WEBHOOKS_ALLOW_PRIVATE_URLS = "true";
  resetConfig();
  [receiver, m, other] = await Promise.all([startReceiver(), newMerchant("Quill & Co"), newMerchant("Other shop")]);
});
afterAll(async () => {
  await receiver?.close();
  delete process.env.WEBHOOKS_ALLOW_PRIVATE_URLS;
  resetConfig();
});

describe("the payments list", () => {
  it(
    "filters by status, chain and dates, and finds a payment by id, " + "deposit address (any case) or deposit tx hash",
    async () => {
      const polygon = [
        await create({ amount: "1.500000", chain: "polygon" }),
        await create({ amount: "2.000000", chain: "polygon" }),
      ];
      const tron = await create({ amount: "3.250000", chain: "tron" });
      const open = await create({ amount: "4.000000" }); // no network chosen yet
      await create({ amount: "9.000000", chain: "polygon" }, other.sandboxKey);
      // One payment made "last January", for the date range.
      await query(db(), "update payments set created_at = '2025-01-15T12:00:00Z' where id = $1", [polygon[0]!.id]);
      const ids = async (q: Record<string, string>) =>
        (await loadPaymentsPage(db(), owner(), q)).payments.map((p) => p.id).sort();

      expect(await ids({})).toEqual([...polygon.map((p) => p.id), tron.id, open.id].sort());
      expect(await ids({ chain: "polygon" })).toEqual(polygon.map((p) => p.id).sort());
      await query(db(), "update payments set status = 'expired' where id = $1", [open.id]);
      expect(await ids({ status: "expired" })).toEqual([open.id]);
      expect(await ids({ status: "confirmed" })).toEqual([]);
      expect(await ids({ status: "awaiting_payment", chain: "tron" })).toEqual([tron.id]);
      expect(await ids({ from: "2025-01-15", to: "2025-01-15" })).toEqual([polygon[0]!.id]);
      expect(await ids({ to: "2025-01-14" })).toEqual([]);
      expect(await ids({ from: "2025-01-16" })).not.toContain(polygon[0]!.id);

      expect(await ids({ q: tron.id })).toEqual([tron.id]);
      expect(await ids({ q: polygon[1]!.deposit_address!.toUpperCase().replace("0X", "0x") })).toEqual([
        polygon[1]!.id,
      ]);
      expect(await ids({ q: tron.deposit_address! })).toEqual([tron.id]);
      const txHash = `0x${randomBytes(32).toString("hex")}`;
      await query(
        db(),
        `insert into deposits (id, payment_id, merchant_id, mode, chain, kind, status, tx_hash, log_index, position,
         block_number, block_hash, block_time, to_address, raw_amount, amount_units)
       values ($1, $2, $3, 'sandbox', 'polygon', 'payment', 'pending', $4, 0, 0, 1, '0x00', now(), $5,
         2000000, 2000000)`,
        [`dep_${randomBytes(8).toString("hex")}`, polygon[1]!.id, m.id, txHash, polygon[1]!.deposit_address],
      );
      expect(await ids({ q: txHash })).toEqual([polygon[1]!.id]);
      expect(await ids({ q: txHash.toUpperCase().replace("0X", "0x") })).toEqual([polygon[1]!.id]);
      // Another merchant's payment is never found, even by its exact id.
      const theirs = (await listPayments(db(), { merchantId: other.id, mode: "sandbox" }, {})).rows[0]!;
      expect(await ids({ q: theirs.id })).toEqual([]);
      expect(await ids({ q: theirs.depositAddress! })).toEqual([]);
      // Nor the live list of this merchant.
      expect((await loadPaymentsPage(db(), owner("live"), {})).payments).toEqual([]);

      const page = await loadPaymentsPage(db(), owner(), { q: tron.id });
      expect(page.payments[0]).toMatchObject({ amount: "3.250000", status: "awaiting_payment", chain: "tron" });
    },
  );

  it("says which filter is wrong, and ignores it", () => {
    const { filters, errors } = parsePaymentFilters({ status: "paid", chain: "doge", from: "2025-02-30", to: "x" });
    expect(filters).toEqual({});
    expect(errors).toEqual({
      status: "Choose a status from the list.",
      chain: "Choose a network from the list.",
      from: "Enter a date as YYYY-MM-DD.",
      to: "Enter a date as YYYY-MM-DD.",
    });
    expect(parsePaymentFilters({ from: "2025-03-02", to: "2025-03-01" }).errors).toEqual({
      to: "The end date must not be before the start date.",
    });
  });

  it("pages forwards and back by cursor (nothing lost or repeated), with filters applied on every page", async () => {
    const shop = await newMerchant("Paging shop");
    const made: string[] = [];
    for (let i = 0; i < 5; i++)
      made.unshift((await create({ amount: `${i + 1}.000000`, chain: "bnb" }, shop.sandboxKey)).id);
    await create({ amount: "1.000000", chain: "eth" }, shop.sandboxKey);
    const o = { merchantId: shop.id, mode: "sandbox" as const };
    const f = { chain: "bnb" as const };
    const p1 = await listPayments(db(), o, { limit: 2 }, f);
    const p2 = await listPayments(db(), o, { limit: 2, starting_after: p1.rows[1]!.id }, f);
    const p3 = await listPayments(db(), o, { limit: 2, starting_after: p2.rows[1]!.id }, f);
    expect([p1, p2, p3].flatMap((p) => p.rows.map((r) => r.id))).toEqual(made);
    expect([p1.hasMore, p2.hasMore, p3.hasMore]).toEqual([true, true, false]);
    // Back from page 3: page 2 again, newest first, with more before it.
    const back = await listPayments(db(), o, { limit: 2, ending_before: p3.rows[0]!.id }, f);
    expect(back.rows.map((r) => r.id)).toEqual(p2.rows.map((r) => r.id));
    expect(back.hasMore).toBe(true);
    const first = await listPayments(db(), o, { limit: 2, ending_before: back.rows[0]!.id }, f);
    expect(first.rows.map((r) => r.id)).toEqual(p1.rows.map((r) => r.id));
    expect(first.hasMore).toBe(false);
    // The links: the first page has no Previous; a page read backwards always has a Next.
    expect(pageLinks(made.slice(0, 2), {}, true)).toEqual({ previous: undefined, next: made[1] });
    expect(pageLinks(made.slice(2, 4), { after: made[1] }, true)).toEqual({ previous: made[2], next: made[3] });
    expect(pageLinks(made.slice(4), { after: made[3] }, false)).toEqual({ previous: made[4], next: undefined });
    expect(pageLinks(made.slice(0, 2), { before: made[2] }, false)).toEqual({ previous: undefined, next: made[1] });
    // A cursor of another merchant (an edited URL) is not followed.
    const stale = await loadPaymentsPage(db(), owner(), { after: made[0]! });
    expect(stale).toMatchObject({ staleCursor: true, payments: [] });
  });
});

describe("a payment's detail and its events", () => {
  it("shows the payment, its timeline and deliveries; another merchant's or mode's is not found", async () => {
    const endpoint = (
      await api("POST", "/v1/webhooks", { key: m.sandboxKey, body: { url: receiver.url("/detail"), events: [] } })
    ).json as { id: string };
    const p = await create({ amount: "12.345678", chain: "eth", metadata: { order: "A-17" } });
    const detail = (await loadPaymentDetail(db(), owner(), p.id, "https://pay.test"))!;
    expect(detail.payment).toMatchObject({
      amount: "12.345678",
      status: "awaiting_payment",
      metadata: { order: "A-17" },
    });
    expect(detail.timeline.map((t) => t.type)).toEqual(["created", "payment.awaiting_payment"]);
    expect(detail.deposits).toEqual([]);
    expect(detail.deliveries).toEqual([
      expect.objectContaining({
        endpoint_id: endpoint.id,
        event_type: "payment.awaiting_payment",
        url: receiver.url("/detail"),
      }),
    ]);

    expect(await loadPaymentDetail(db(), { merchantId: other.id, mode: "sandbox" }, p.id, "")).toBeNull();
    expect(await loadPaymentDetail(db(), owner("live"), p.id, "")).toBeNull();
    const eventId = detail.timeline[1]!.id!;
    const event = (await loadEventDetail(db(), owner(), eventId))!;
    expect(JSON.parse(event.json)).toMatchObject({
      id: eventId,
      type: "payment.awaiting_payment",
      data: { object: { id: p.id } },
    });
    expect(event.json).toContain('\n  "type": "payment.awaiting_payment"');
    expect(await loadEventDetail(db(), { merchantId: other.id, mode: "sandbox" }, eventId)).toBeNull();
    expect(await loadEventDetail(db(), owner("live"), eventId)).toBeNull();

    const confirmed = await loadEventsPage(db(), owner(), { type: "payment.confirmed" });
    expect(confirmed.events).toEqual([]);
    const awaiting = await loadEventsPage(db(), owner(), { type: "payment.awaiting_payment" });
    expect(awaiting.events.map((e) => e.id)).toContain(eventId);
    expect(awaiting.events.every((e) => e.type === "payment.awaiting_payment")).toBe(true);
    expect((await loadEventsPage(db(), owner(), { type: "nope" })).typeError).toBe(
      "Choose an event type from the list.",
    );
  });

  it("Resend sends the frozen event body again as the next attempt, audited; never another merchant's", async () => {
    await api("POST", "/v1/webhooks", { key: m.sandboxKey, body: { url: receiver.url("/resend"), events: [] } });
    const p = await create({ amount: "5.000000", chain: "bnb" });
    const deliveryOf = async () =>
      (await loadPaymentDetail(db(), owner(), p.id, ""))!.deliveries.find((d) => d.url === receiver.url("/resend"))!;
    // Its first attempt made and settled first: a worker of another file running beside this one may take the
    // pending delivery at any moment, and the resend must be compared with what came before it, not race it.
    await deliverWebhooks(db(), { eventId: (await deliveryOf()).event_id }, { waitMs: 5_000 });
    const delivery = await until(
      "the first attempt recorded",
      async () => {
        const d = await deliveryOf();
        return d.status === "succeeded" && d;
      },
      10_000,
    );
    const before = receiver.at("/resend").length;

    const out = await resendFromDashboard(db(), actor(), "sandbox", delivery.id);
    expect(out).toEqual({ message: "Resent: the endpoint answered 200." });
    const hits = receiver.at("/resend");
    expect(hits).toHaveLength(before + 1);
    const [event] = await query<{ body: string }>(db(), "select body from events where id = $1", [delivery.event_id]);
    const body = event!.body;
    expect(hits.at(-1)!.body).toBe(body);
    const after = (await loadPaymentDetail(db(), owner(), p.id, ""))!.deliveries.find((d) => d.id === delivery.id)!;
    expect(after).toMatchObject({ status: "succeeded", status_code: 200, attempt: (delivery.attempt ?? 0) + 1 });
    const audit = await query(
      db(),
      "select action, target, details from audit_log where merchant_id = $1 and target = $2",
      [m.id, delivery.id],
    );
    expect(audit).toEqual([
      { action: "webhook_event.resent", target: delivery.id, details: expect.objectContaining({ status_code: 200 }) },
    ]);

    const count = receiver.at("/resend").length;
    expect(await resendFromDashboard(db(), actor(other.id), "sandbox", delivery.id)).toEqual({
      error: `No such webhook delivery: '${delivery.id}'`,
    });
    expect(await resendFromDashboard(db(), actor(), "live", delivery.id)).toEqual({
      error: `No such webhook delivery: '${delivery.id}'`,
    });
    expect(receiver.at("/resend")).toHaveLength(count);
  });
});

describe("sandbox controls", () => {
  it(
    "never act in live mode, nor on another merchant's payment; " + "bad counts are refused by the API's rules",
    async () => {
      const p = await create({ amount: "1.000000", chain: "polygon" });
      for (const run of [
        () => payInSandbox(db(), actor(), "live", p.id),
        () => mineForPayment(db(), actor(), "live", p.id, 1),
        () => reorgForPayment(db(), actor(), "live", p.id, 1),
      ])
        expect(await run()).toEqual({ error: SANDBOX_ONLY });
      expect(await payInSandbox(db(), actor(other.id), "sandbox", p.id)).toEqual({
        error: `No such payment: '${p.id}'`,
      });
      expect(await mineForPayment(db(), actor(other.id), "sandbox", p.id, 1)).toEqual({
        error: `No such payment: '${p.id}'`,
      });
      expect(await mineForPayment(db(), actor(), "sandbox", p.id, 0)).toEqual({ error: "blocks must be at least 1" });
      expect(await reorgForPayment(db(), actor(), "sandbox", p.id, 65)).toEqual({ error: "depth must be at most 64" });
      const audited = await query(db(), "select 1 from audit_log where target = $1", [p.id]);
      expect(audited).toEqual([]);
    },
  );

  it(
    "Reorg needs the operator's sandbox:chains grant, as the API does: " +
      "refused without it, nothing changed or audited",
    async () => {
      const shop = await newMerchant("No chain controls", { sandboxChains: false });
      const created = await api("POST", "/v1/payments", {
        key: shop.sandboxKey,
        body: { amount: "1.000000", chain: "polygon" },
      });
      expect(created.status, created.text).toBe(200);
      // As the API refuses it: the same merchant's key gets 403 on the reorg endpoint.
      const viaApi = await api("POST", "/v1/sandbox/chains/polygon/reorg", {
        key: shop.sandboxKey,
        body: { depth: 1 },
      });
      expect(viaApi.status).toBe(403);
      expect(await reorgForPayment(db(), actor(shop.id), "sandbox", created.json.id, 1)).toEqual({
        error: NO_CHAIN_GRANT,
      });
      expect(await query(db(), "select 1 from audit_log where target = $1", [created.json.id])).toEqual([]);
    },
  );

  it("Pay it sends what is owed on the sandbox chain and is audited; Mine blocks mines", async () => {
    const p = await create({ amount: "2.500000", chain: "polygon" });
    const out = await payInSandbox(db(), actor(), "sandbox", p.id);
    expect(out.message).toMatch(/^Sent 2\.500000 USDT: 0x[0-9a-f]{64}$/);
    const [entry] = await query(db(), "select action, details from audit_log where target = $1", [p.id]);
    expect(entry).toEqual({
      action: "sandbox.payment_paid",
      details: { chain: "polygon", amount: "2.500000", tx_hash: out.message!.split(": ")[1] },
    });
    const mined = await mineForPayment(db(), actor(), "sandbox", p.id, 1);
    expect(mined.message).toMatch(/^Mined 1 blocks on polygon; head \d+\.$/);
  });
});
