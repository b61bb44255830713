import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DomainError } from "@/lib/kernel/domain-error";
import { config, resetConfig } from "@/lib/platform/config/env";
import { DashboardForbiddenError } from "@/lib/identity/auth/dashboard-actor";
import {
  createDashboardWebhook,
  deleteDashboardWebhook,
  setDashboardWebhookActive,
  updateDashboardWebhookEvents,
} from "@/lib/dashboard/actions/webhook-endpoints";
import { resendDashboardEvent, sendDashboardTestEvent } from "@/lib/dashboard/actions/webhook-sends";
import { STEP_UP_MESSAGE } from "@/lib/identity/users/step-up-message";
import { getDb } from "@/lib/platform/db/client";
import { query } from "@/lib/platform/db/query";
import { listDeliveryLog } from "@/lib/notify/webhooks/list-delivery-log";
import { listWebhookEndpoints } from "@/lib/notify/webhooks/list-webhook-endpoints";
import { newMerchant } from "../helpers/api";
import { auditRows, newActor } from "../helpers/dashboard-actors";
import { startReceiver, verifySignature } from "../helpers/webhook-receiver";

// Sandbox endpoints may be this file's loopback receiver (the documented sandbox switch); live never.
process.env.WEBHOOKS_ALLOW_PRIVATE_URLS = "true";
resetConfig();

let receiver: Awaited<ReturnType<typeof startReceiver>>;
beforeAll(async () => {
  receiver = await startReceiver();
});
afterAll(() => receiver?.close());

const db = () => getDb();
const publicDns = { resolve: async () => ["93.184.216.34"] };
const all = { filter: "all" as const, events: [] };

async function ownerWithEndpoint(path: string) {
  const m = await newMerchant();
  const owner = await newActor(m.id, "owner");
  const created = await createDashboardWebhook(db(), owner, { url: receiver.url(path), ...all });
  if (!created.ok) throw new Error(JSON.stringify(created.errors));
  return { m, owner, endpoint: created.endpoint, secret: created.secret };
}

describe("dashboard webhook endpoints", () => {
  it("validate as POST /v1/webhooks does, with each error on its field", async () => {
    const m = await newMerchant();
    const dev = await newActor(m.id, "developer");
    const strict = { ...publicDns, config: { ...config(), webhooksAllowPrivateUrls: false } };
    const errorsOf = async (url: string, filter: "all" | "chosen" = "all", events: string[] = []) => {
      const r = await createDashboardWebhook(db(), dev, { url, filter, events }, strict);
      return r.ok ? null : r.errors;
    };
    expect(await errorsOf("")).toEqual({ url: "url must not be empty" });
    expect(await errorsOf("not a url")).toEqual({
      url: "url must be an absolute URL, for example https://example.com/webhooks",
    });
    expect(await errorsOf("http://hooks.example.com/x")).toEqual({ url: "url must use https" });
    expect(await errorsOf("https://10.0.0.7/x")).toEqual({
      url: "url host '10.0.0.7' resolves to 10.0.0.7, which is not a public address",
    });
    expect(await errorsOf("https://hooks.example.com/x", "chosen")).toEqual({
      events: "Choose at least one event type, or All events.",
    });
    expect((await errorsOf("https://hooks.example.com/x", "chosen", ["payment.bogus"]))?.events).toMatch(
      /^events must be event types: payment.awaiting_payment/,
    );
    expect((await listWebhookEndpoints(db(), { merchantId: m.id, mode: "sandbox" }, {})).rows).toEqual([]);

    const ok = await createDashboardWebhook(
      db(),
      dev,
      { url: "https://hooks.example.com/x", filter: "chosen", events: ["payment.confirmed", "payout.failed"] },
      strict,
    );
    expect(ok.ok && ok.secret).toMatch(/^whsec_[0-9A-Za-z]{43}$/);
    expect(ok.ok && ok.endpoint.events).toEqual(["payment.confirmed", "payout.failed"]);
    const audit = await auditRows(m.id, "webhook_endpoint.created");
    expect(audit).toEqual([
      {
        user_id: dev.userId,
        target: ok.ok && ok.endpoint.id,
        details: {
          mode: "sandbox",
          url: "https://hooks.example.com/x",
          events: ["payment.confirmed", "payout.failed"],
        },
        ip: "10.1.2.3",
      },
    ]);
    expect(JSON.stringify(audit)).not.toContain("whsec_");
  });

  it("in live mode need step-up: refused without a second factor in the last 5 minutes, added with one", async () => {
    const m = await newMerchant();
    const live = await newActor(m.id, "owner", "live");
    const input = { url: "https://hooks.example.com/x", ...all };
    for (const secondFactorAt of [null, new Date(Date.now() - 6 * 60_000)]) {
      const r = await createDashboardWebhook(db(), { ...live, secondFactorAt }, input, publicDns);
      expect(r).toEqual({ ok: false, errors: { form: STEP_UP_MESSAGE } });
    }
    expect((await listWebhookEndpoints(db(), { merchantId: m.id, mode: "live" }, {})).rows).toEqual([]);
    expect(await auditRows(m.id, "webhook_endpoint.created")).toEqual([]);
    const made = await createDashboardWebhook(db(), { ...live, secondFactorAt: new Date() }, input, publicDns);
    expect(made).toMatchObject({ ok: true, endpoint: { mode: "live" } });
    expect(await auditRows(m.id, "webhook_endpoint.created")).toHaveLength(1);
  });

  it("filter, disable, enable and delete, each audited", async () => {
    const { m, owner, endpoint } = await ownerWithEndpoint("/manage");
    const updated = await updateDashboardWebhookEvents(db(), owner, endpoint.id, {
      filter: "chosen",
      events: ["payment.expired"],
    });
    expect(updated.ok && updated.endpoint.events).toEqual(["payment.expired"]);
    expect(await updateDashboardWebhookEvents(db(), owner, endpoint.id, { filter: "chosen", events: [] })).toEqual({
      ok: false,
      errors: { events: "Choose at least one event type, or All events." },
    });
    expect((await setDashboardWebhookActive(db(), owner, endpoint.id, false)).active).toBe(false);
    await expect(sendDashboardTestEvent(db(), owner, endpoint.id)).rejects.toThrow(/disabled; enable it/);
    expect((await setDashboardWebhookActive(db(), owner, endpoint.id, true)).active).toBe(true);
    await deleteDashboardWebhook(db(), owner, endpoint.id);
    expect((await listWebhookEndpoints(db(), { merchantId: m.id, mode: "sandbox" }, {})).rows).toEqual([]);
    for (const action of ["updated", "disabled", "enabled", "deleted"])
      expect(await auditRows(m.id, `webhook_endpoint.${action}`), action).toEqual([
        expect.objectContaining({ user_id: owner.userId, target: endpoint.id }),
      ]);
  });

  it("a test event and its resend reach the receiver, signed, and fill the delivery log; both audited", async () => {
    const { m, owner, endpoint, secret } = await ownerWithEndpoint("/test-event");
    receiver.failFirst("/test-event", [500]);
    const test = await sendDashboardTestEvent(db(), owner, endpoint.id);
    expect(test.result).toMatchObject({ success: false, statusCode: 500 });
    const again = await resendDashboardEvent(db(), owner, { endpointId: endpoint.id, eventId: test.eventId });
    expect(again).toMatchObject({ success: true, statusCode: 200 });

    const got = receiver.at("/test-event");
    expect(got).toHaveLength(2);
    for (const r of got) expect(verifySignature(r.headers["service-signature"] as string, r.body, secret)).toBe(true);
    expect(got[0]!.body).toBe(got[1]!.body);
    expect(JSON.parse(got[0]!.body)).toMatchObject({
      id: test.eventId,
      type: "webhook_endpoint.test",
      livemode: false,
      data: { object: { id: endpoint.id, object: "webhook_endpoint", url: endpoint.url } },
    });

    const log = await listDeliveryLog(db(), { merchantId: m.id, mode: "sandbox" }, { endpointId: endpoint.id });
    expect(log.data.map((a) => [a.event_type, a.attempt, a.status_code, a.response_body])).toEqual([
      ["webhook_endpoint.test", 2, 200, "ok"],
      ["webhook_endpoint.test", 1, 500, "nope"],
    ]);
    for (const a of log.data) expect(a.latency_ms).toBeGreaterThanOrEqual(0);
    const perEvent = await listDeliveryLog(db(), { merchantId: m.id, mode: "sandbox" }, { eventId: test.eventId });
    expect(perEvent.data.map((a) => a.id)).toEqual(log.data.map((a) => a.id));

    expect(await auditRows(m.id, "webhook_endpoint.test_sent")).toEqual([
      expect.objectContaining({ user_id: owner.userId, target: endpoint.id }),
    ]);
    expect(await auditRows(m.id, "webhook_event.resent")).toEqual([
      expect.objectContaining({ user_id: owner.userId, target: test.eventId, details: { endpoint: endpoint.id } }),
    ]);
  });

  it("another merchant's endpoint, or the other mode's, is not found; nothing changes or is sent", async () => {
    const { m, owner, endpoint } = await ownerWithEndpoint("/isolation");
    const { eventId } = await sendDashboardTestEvent(db(), owner, endpoint.id);
    const sent = receiver.at("/isolation").length;
    const stranger = await newActor((await newMerchant()).id, "owner");
    const ownLive = await newActor(m.id, "owner", "live");
    for (const actor of [stranger, ownLive]) {
      const notFound = expect.objectContaining({ type: "not_found" });
      const attempts: (() => Promise<unknown>)[] = [
        () => updateDashboardWebhookEvents(db(), actor, endpoint.id, all),
        () => setDashboardWebhookActive(db(), actor, endpoint.id, false),
        () => deleteDashboardWebhook(db(), actor, endpoint.id),
        () => resendDashboardEvent(db(), actor, { endpointId: endpoint.id, eventId }),
        () => sendDashboardTestEvent(db(), actor, endpoint.id),
      ];
      for (const run of attempts) await expect(run()).rejects.toEqual(notFound);
      const log = await listDeliveryLog(
        db(),
        { merchantId: actor.merchantId, mode: actor.mode },
        { endpointId: endpoint.id },
      );
      expect(log.data).toEqual([]);
    }
    expect(receiver.at("/isolation")).toHaveLength(sent);
    const [row] = await query<{ active: boolean; deleted_at: Date | null }>(
      db(),
      "select active, deleted_at from webhook_endpoints where id = $1",
      [endpoint.id],
    );
    expect(row).toEqual({ active: true, deleted_at: null });
    expect(await auditRows(m.id, "webhook_endpoint.disabled")).toEqual([]);
  });

  it("a viewer is refused every action, before anything is done", async () => {
    const { m, owner, endpoint } = await ownerWithEndpoint("/viewer");
    const { eventId } = await sendDashboardTestEvent(db(), owner, endpoint.id);
    const sent = receiver.at("/viewer").length;
    const viewer = await newActor(m.id, "viewer");
    const refused = [
      () => createDashboardWebhook(db(), viewer, { url: receiver.url("/viewer2"), ...all }),
      () => updateDashboardWebhookEvents(db(), viewer, endpoint.id, all),
      () => setDashboardWebhookActive(db(), viewer, endpoint.id, false),
      () => deleteDashboardWebhook(db(), viewer, endpoint.id),
      () => resendDashboardEvent(db(), viewer, { endpointId: endpoint.id, eventId }),
      () => sendDashboardTestEvent(db(), viewer, endpoint.id),
    ];
    for (const run of refused) {
      const err = await run().catch((e: unknown) => e);
      expect(err).toBeInstanceOf(DashboardForbiddenError);
      expect((err as Error).message).toBe("Your role (viewer) does not allow this.");
      expect(err).not.toBeInstanceOf(DomainError);
    }
    expect(receiver.at("/viewer")).toHaveLength(sent);
    expect((await listWebhookEndpoints(db(), { merchantId: m.id, mode: "sandbox" }, {})).rows).toHaveLength(1);
    const [{ n }] = (await query<{ n: number }>(
      db(),
      "select count(*)::int as n from audit_log where merchant_id = $1 and user_id = $2",
      [m.id, viewer.userId],
    )) as [{ n: number }];
    expect(n).toBe(0);
  });
});
