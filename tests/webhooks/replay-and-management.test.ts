import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api, expectError, newMerchant, type TestMerchant } from "../helpers/api";
import { startReceiver, verifySignature } from "../helpers/webhook-receiver";

let receiver: Awaited<ReturnType<typeof startReceiver>>;
beforeAll(async () => {
  receiver = await startReceiver();
});
afterAll(async () => {
  await receiver?.close();
});

const register = async (m: TestMerchant, path: string, events: string[] = []) =>
  (await api("POST", "/v1/webhooks", { key: m.sandboxKey, body: { url: receiver.url(path), events } })).json as {
    id: string;
    secret: string;
    url: string;
  };

describe("POST /v1/payments/:id/replay", () => {
  it.each([0, 1, 3])(
    "re-sends the current-status event to %i active endpoints and answers exactly the documented shape",
    async (count) => {
      const m = await newMerchant();
      const endpoints = [];
      for (let i = 0; i < count; i++) endpoints.push(await register(m, `/replay-${count}-${i}`));
      const payment = (
        await api("POST", "/v1/payments", { key: m.sandboxKey, body: { amount: "3.000000", chain: "polygon" } })
      ).json;
      const reply = await api("POST", `/v1/payments/${payment.id}/replay`, { key: m.sandboxKey });
      expect(reply.status).toBe(200);
      expect(Object.keys(reply.json).sort()).toEqual(["deliveries", "dispatched", "event"]);
      expect(reply.json.event).toBe("payment.awaiting_payment");
      expect(reply.json.dispatched).toBe(count);
      expect(reply.json.deliveries).toEqual(
        endpoints.map((e) => ({ endpointId: e.id, url: e.url, success: true, statusCode: 200 })),
      );
      const [event] = (await api("GET", "/v1/events?type=payment.awaiting_payment", { key: m.sandboxKey })).json.data;
      for (const [i, e] of endpoints.entries()) {
        const hits = receiver.at(`/replay-${count}-${i}`);
        const replayed = hits.find((h) => JSON.parse(h.body).id === event.id);
        expect(replayed, "the replay carries the original event id").toBeDefined();
        expect(verifySignature(replayed!.headers["service-signature"] as string, replayed!.body, e.secret)).toBe(true);
      }
    },
  );

  it("reports failures per endpoint, honours filters and disabled endpoints", async () => {
    const m = await newMerchant();
    const ok = await register(m, "/r-ok");
    const failing = await register(m, "/r-fail");
    await register(m, "/r-filtered", ["payment.confirmed"]);
    const disabled = await register(m, "/r-disabled");
    await api("POST", `/v1/webhooks/${disabled.id}`, { key: m.sandboxKey, body: { active: false } });
    receiver.failFirst("/r-fail", [500, 500, 500, 500, 500, 500, 500, 500]);
    const payment = (await api("POST", "/v1/payments", { key: m.sandboxKey, body: { amount: "1.000000" } })).json;
    const reply = (await api("POST", `/v1/payments/${payment.id}/replay`, { key: m.sandboxKey })).json;
    expect(reply.dispatched).toBe(2);
    expect(reply.deliveries).toEqual([
      { endpointId: ok.id, url: ok.url, success: true, statusCode: 200 },
      { endpointId: failing.id, url: failing.url, success: false, statusCode: 500 },
    ]);
  });

  it("404 for another merchant's payment; 10 calls per minute per key", async () => {
    const m = await newMerchant();
    const other = await newMerchant();
    const payment = (await api("POST", "/v1/payments", { key: m.sandboxKey, body: { amount: "1.000000" } })).json;
    expectError(
      await api("POST", `/v1/payments/${payment.id}/replay`, { key: other.sandboxKey }),
      "not_found",
      404,
      "id",
    );
    for (let i = 0; i < 10; i++)
      expect((await api("POST", `/v1/payments/${payment.id}/replay`, { key: m.sandboxKey })).status).toBe(200);
    expectError(
      await api("POST", `/v1/payments/${payment.id}/replay`, { key: m.sandboxKey }),
      "rate_limit_exceeded",
      429,
    );
  });
});

describe("webhook endpoint management and attempts", () => {
  it("retrieve, update (url checked again), disable and delete", async () => {
    const m = await newMerchant();
    const other = await newMerchant();
    const created = await register(m, "/manage");
    const got = (await api("GET", `/v1/webhooks/${created.id}`, { key: m.sandboxKey })).json;
    expect(got).toMatchObject({ id: created.id, object: "webhook_endpoint", active: true, events: [] });
    expect(got).not.toHaveProperty("secret");
    const updated = (
      await api("POST", `/v1/webhooks/${created.id}`, {
        key: m.sandboxKey,
        body: { events: ["payment.confirmed"], active: false },
      })
    ).json;
    expect(updated).toMatchObject({ events: ["payment.confirmed"], active: false, url: created.url });
    expectError(
      await api("POST", `/v1/webhooks/${created.id}`, { key: m.sandboxKey, body: { url: "ftp://x" } }),
      "invalid_request_error",
      400,
      "url",
    );
    expectError(
      await api("POST", `/v1/webhooks/${created.id}`, { key: m.sandboxKey, body: { secret: "x" } }),
      "invalid_request_error",
      400,
      "secret",
    );
    expectError(await api("GET", `/v1/webhooks/${created.id}`, { key: other.sandboxKey }), "not_found", 404, "id");
    expectError(await api("DELETE", `/v1/webhooks/${created.id}`, { key: m.liveKey }), "not_found", 404, "id");
    expect((await api("DELETE", `/v1/webhooks/${created.id}`, { key: m.sandboxKey })).json).toEqual({
      id: created.id,
      object: "webhook_endpoint",
      deleted: true,
    });
    expectError(await api("GET", `/v1/webhooks/${created.id}`, { key: m.sandboxKey }), "not_found", 404, "id");
    expect((await api("GET", "/v1/webhooks", { key: m.sandboxKey })).json.data).toEqual([]);
  });

  it("lists the attempts of an event and of an endpoint", async () => {
    const m = await newMerchant();
    const endpoint = await register(m, "/attempts");
    receiver.failFirst("/attempts", [503, 503, 503, 503, 503, 503, 503, 503]);
    const payment = (await api("POST", "/v1/payments", { key: m.sandboxKey, body: { amount: "1.000000" } })).json;
    await api("POST", `/v1/payments/${payment.id}/replay`, { key: m.sandboxKey });
    const [event] = (await api("GET", "/v1/events", { key: m.sandboxKey })).json.data;
    const byEvent = (await api("GET", `/v1/events/${event.id}/attempts`, { key: m.sandboxKey })).json;
    expect(byEvent.object).toBe("list");
    const replayAttempt = byEvent.data.find((a: { status_code: number }) => a.status_code === 503);
    expect(replayAttempt).toMatchObject({
      object: "webhook_attempt",
      event_id: event.id,
      endpoint_id: endpoint.id,
      url: endpoint.url,
      success: false,
      status_code: 503,
      response_body: "nope",
    });
    expect(replayAttempt.id).toMatch(/^wha_\d+$/);
    const byEndpoint = (await api("GET", `/v1/webhooks/${endpoint.id}/attempts`, { key: m.sandboxKey })).json;
    // Attempts only accrue (the job runner may retry the delivery between the two reads): the endpoint's
    // list holds every attempt the event's list held, and only attempts at this endpoint.
    expect(byEndpoint.data.map((a: { id: string }) => a.id)).toEqual(
      expect.arrayContaining(byEvent.data.map((a: { id: string }) => a.id)),
    );
    expect(new Set(byEndpoint.data.map((a: { endpoint_id: string }) => a.endpoint_id))).toEqual(new Set([endpoint.id]));
    const other = await newMerchant();
    expectError(await api("GET", `/v1/events/${event.id}/attempts`, { key: other.sandboxKey }), "not_found", 404, "id");
    expectError(
      await api("GET", `/v1/webhooks/${endpoint.id}/attempts`, { key: other.sandboxKey }),
      "not_found",
      404,
      "id",
    );
  });
});
