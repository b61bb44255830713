import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resetConfig } from "@/lib/platform/config/env";
import { getDb, getPool } from "@/lib/platform/db/client";
import { query } from "@/lib/platform/db/query";
import { createWebhookEndpoint } from "@/lib/notify/webhooks/create-webhook-endpoint";
import { startWorker, type JobRunner } from "@/worker/start-jobs";
import { DashboardForbiddenError } from "@/lib/identity/auth/dashboard-actor";
import { resendDashboardFailed } from "@/lib/dashboard/actions/webhook-endpoints";
import { api, expectError, newKey, newMerchant } from "../helpers/api";
import { auditRows, newActor } from "../helpers/dashboard-actors";
import { until } from "../helpers/started-service";
import { startReceiver, waitFor } from "../helpers/webhook-receiver";

// A loopback receiver (the sandbox switch) and the retry schedule at ×0.02: six attempts end in about 3 s.
process.env.WEBHOOKS_ALLOW_PRIVATE_URLS = "true";
process.env.WEBHOOK_RETRY_SCALE = "0.02";
resetConfig();

let receiver: Awaited<ReturnType<typeof startReceiver>>;
let worker: JobRunner;
beforeAll(async () => {
  receiver = await startReceiver();
  worker = await startWorker(getPool(), { concurrency: 10 });
});
afterAll(async () => {
  await receiver?.close();
  await worker?.stop();
});

const deliveryStatus = async (endpointId: string) =>
  (
    await query<{ status: string }>(getDb(), "select status from webhook_deliveries where endpoint_id = $1", [
      endpointId,
    ])
  ).map((d) => d.status);

/** A merchant whose endpoint refused every attempt of one payment's event until its delivery gave up. */
async function givenUpDelivery(path: string) {
  const m = await newMerchant();
  const { row } = await createWebhookEndpoint(
    getDb(),
    { merchantId: m.id, mode: "sandbox" },
    { url: receiver.url(path), events: ["payment.awaiting_payment"] },
  );
  receiver.failFirst(path, [500, 500, 500, 500, 500, 500]);
  const payment = await api("POST", "/v1/payments", { key: m.sandboxKey, body: { amount: "4.000000" } });
  await until("the delivery to give up", async () => (await deliveryStatus(row.id)).includes("failed"), 20_000);
  return { m, endpointId: row.id, paymentId: payment.json.id as string };
}

describe("undelivered events, recovered", () => {
  it(
    "lists the event as undelivered; resend_failed delivers it, " + "once, audited; then it lists as delivered",
    async () => {
      const { m, endpointId, paymentId } = await givenUpDelivery("/resend");
      const undelivered = await api("GET", "/v1/events?delivery_success=false", { key: m.sandboxKey });
      expect(undelivered.status).toBe(200);
      expect(undelivered.json.data.map((e: any) => e.data.object.id)).toEqual([paymentId]);
      const delivered = await api("GET", "/v1/events?delivery_success=true", { key: m.sandboxKey });
      expect(delivered.json.data).toEqual([]);

      const before = receiver.at("/resend").length;
      const headers = { "Idempotency-Key": `resend-${endpointId}` };
      const resent = await api("POST", `/v1/webhooks/${endpointId}/resend_failed`, { key: m.sandboxKey, headers });
      expect(resent.status, resent.text).toBe(200);
      expect(resent.json).toEqual({ object: "webhook_resend", endpoint: endpointId, queued: 1, has_more: false });
      await waitFor(() => receiver.at("/resend").length > before || undefined, 15_000);
      await until(
        "the delivery to succeed",
        async () => (await deliveryStatus(endpointId)).includes("succeeded"),
        15_000,
      );
      expect(receiver.at("/resend")).toHaveLength(before + 1);
      const now = await api("GET", "/v1/events?delivery_success=true", { key: m.sandboxKey });
      expect(now.json.data.map((e: any) => e.data.object.id)).toEqual([paymentId]);

      // The same key replays the answer; a new call finds nothing left to queue.
      const replay = await api("POST", `/v1/webhooks/${endpointId}/resend_failed`, { key: m.sandboxKey, headers });
      expect(replay.headers.get("idempotent-replayed")).toBe("true");
      expect(replay.json.queued).toBe(1);
      const again = await api("POST", `/v1/webhooks/${endpointId}/resend_failed`, { key: m.sandboxKey });
      expect(again.json.queued).toBe(0);
      await new Promise((r) => setTimeout(r, 500));
      expect(receiver.at("/resend")).toHaveLength(before + 1);

      const audit = await query<{ action: string; target: string; details: Record<string, unknown> }>(
        getDb(),
        "select action, target, details from audit_log where merchant_id = $1 order by created_at",
        [m.id],
      );
      expect(audit.map((a) => [a.action, a.target, a.details.queued, a.details.api_key])).toEqual([
        ["webhook.resend_failed", endpointId, 1, m.sandboxKeyId],
        ["webhook.resend_failed", endpointId, 0, m.sandboxKeyId],
      ]);
    },
  );

  it(
    "only events created since `since`; refuses a disabled endpoint, " + "another merchant's, and a read-only key",
    async () => {
      const { m, endpointId } = await givenUpDelivery("/since");
      const future = Math.floor(Date.now() / 1000) + 3600;
      const later = await api("POST", `/v1/webhooks/${endpointId}/resend_failed`, {
        key: m.sandboxKey,
        body: { since: future },
      });
      expect(later.json.queued).toBe(0);
      expectError(
        await api("POST", `/v1/webhooks/${endpointId}/resend_failed`, {
          key: m.sandboxKey,
          body: { since: "yesterday" },
        }),
        "invalid_request_error",
        400,
        "since",
      );
      // Far beyond what a timestamp holds: the envelope, not the database's "timestamp out of range" as a 500.
      for (const since of [Number.MAX_SAFE_INTEGER, 253_402_300_800])
        expectError(
          await api("POST", `/v1/webhooks/${endpointId}/resend_failed`, { key: m.sandboxKey, body: { since } }),
          "invalid_request_error",
          400,
          "since",
        );
      const last = await api("POST", `/v1/webhooks/${endpointId}/resend_failed`, {
        key: m.sandboxKey,
        body: { since: 253_402_300_799 },
      });
      expect(last.json.queued).toBe(0);

      const reader = await newKey(m.id, "sandbox", ["webhooks:read"]);
      const forbidden = await api("POST", `/v1/webhooks/${endpointId}/resend_failed`, { key: reader.secret });
      expectError(forbidden, "forbidden", 403);
      const other = await newMerchant();
      expectError(
        await api("POST", `/v1/webhooks/${endpointId}/resend_failed`, { key: other.sandboxKey }),
        "not_found",
        404,
        "id",
      );
      await api("POST", `/v1/webhooks/${endpointId}`, { key: m.sandboxKey, body: { active: false } });
      expectError(
        await api("POST", `/v1/webhooks/${endpointId}/resend_failed`, { key: m.sandboxKey }),
        "invalid_request_error",
        400,
        "id",
      );
      // None of the refusals queued anything.
      expect(await deliveryStatus(endpointId)).toEqual(["failed"]);
    },
  );

  it(
    "the dashboard's button: a developer resends, " + "delivered once and audited under the user; a viewer is refused",
    async () => {
      const { m, endpointId } = await givenUpDelivery("/dashboard");
      const viewer = await newActor(m.id, "viewer");
      await expect(resendDashboardFailed(getDb(), viewer, endpointId)).rejects.toThrow(DashboardForbiddenError);
      expect(await deliveryStatus(endpointId)).toEqual(["failed"]);

      const developer = await newActor(m.id, "developer");
      const before = receiver.at("/dashboard").length;
      expect(await resendDashboardFailed(getDb(), developer, endpointId)).toMatchObject({ queued: 1, has_more: false });
      await until("delivered", async () => (await deliveryStatus(endpointId)).includes("succeeded"), 15_000);
      expect(receiver.at("/dashboard")).toHaveLength(before + 1);
      expect((await resendDashboardFailed(getDb(), developer, endpointId)).queued).toBe(0);
      const audit = await auditRows(m.id, "webhook.resend_failed");
      expect(audit.map((a) => [a.user_id, a.target, a.details?.queued, a.ip])).toEqual([
        [developer.userId, endpointId, 1, "10.1.2.3"],
        [developer.userId, endpointId, 0, "10.1.2.3"],
      ]);
    },
  );
});
