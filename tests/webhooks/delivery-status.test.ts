import { describe, expect, it } from "vitest";
import { resetConfig } from "@/lib/platform/config/env";
import { getDb } from "@/lib/platform/db/client";
import { query } from "@/lib/platform/db/query";
import { createWebhookEndpoint } from "@/lib/notify/webhooks/create-webhook-endpoint";
import { markDelivered, markFailed } from "@/lib/notify/webhooks/record-attempts";
import { api, newMerchant } from "../helpers/api";

// No worker runs in this file: the deliveries stay where these writers put them.
process.env.WEBHOOKS_ALLOW_PRIVATE_URLS = "true";
resetConfig();

async function pendingDelivery(): Promise<string> {
  const m = await newMerchant();
  await createWebhookEndpoint(getDb(), { merchantId: m.id, mode: "sandbox" }, { url: "http://127.0.0.1:9/hook" });
  const reply = await api("POST", "/v1/payments", { key: m.sandboxKey, body: { amount: "3.000000" } });
  expect(reply.status, reply.text).toBe(200);
  const [delivery] = await query<{ id: string; status: string }>(
    getDb(),
    "select d.id, d.status from webhook_deliveries d join events e on e.id = d.event_id where e.merchant_id = $1",
    [m.id],
  );
  expect(delivery!.status).toBe("pending");
  return delivery!.id;
}

const statusOf = async (id: string) =>
  (await query<{ status: string }>(getDb(), "select status from webhook_deliveries where id = $1", [id]))[0]!.status;

describe("a webhook delivery's status", () => {
  it("once delivered (by a replay, say), is not failed by a retry that gave up meanwhile", async () => {
    const id = await pendingDelivery();
    await markDelivered(getDb(), [id]);
    await markFailed(getDb(), [id]);
    expect(await statusOf(id)).toBe("succeeded");
  });

  it("once failed, is delivered by a replay that succeeds", async () => {
    const id = await pendingDelivery();
    await markFailed(getDb(), [id]);
    expect(await statusOf(id)).toBe("failed");
    await markDelivered(getDb(), [id]);
    expect(await statusOf(id)).toBe("succeeded");
  });
});
