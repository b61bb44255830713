import { describe, expect, it } from "vitest";
import { api, expectError, newMerchant } from "../helpers/api";

describe("events", () => {
  it("creating a payment records payment.awaiting_payment with the payment as it was, metadata included", async () => {
    const m = await newMerchant();
    const before = Math.floor(Date.now() / 1000);
    const payment = (
      await api("POST", "/v1/payments", {
        key: m.sandboxKey,
        body: { amount: "10.000000", chain: "eth", metadata: { order: "A-1" } },
      })
    ).json;
    const list = (await api("GET", "/v1/events", { key: m.sandboxKey })).json;
    expect(list.object).toBe("list");
    expect(list.has_more).toBe(false);
    expect(list.data).toHaveLength(1);
    const event = list.data[0];
    expect(Object.keys(event).sort()).toEqual(["created", "data", "id", "livemode", "object", "type"]);
    expect(event).toMatchObject({ object: "event", type: "payment.awaiting_payment", livemode: false });
    expect(event.id).toMatch(/^evt_[0-9A-Za-z]{24}$/);
    expect(Number.isInteger(event.created)).toBe(true);
    expect(event.created).toBeGreaterThanOrEqual(before - 1);
    expect(event.data.object).toEqual(payment);
    expect((await api("GET", `/v1/events/${event.id}`, { key: m.sandboxKey })).json).toEqual(event);
  });

  it("no event without the state change: refused requests and idempotent replays record nothing", async () => {
    const m = await newMerchant();
    await api("POST", "/v1/payments", { key: m.sandboxKey, body: { amount: "1" } });
    await api("POST", "/v1/payments", { key: m.liveKey, body: { amount: "1.000000", chain: "eth" } }); // chain_disabled
    const headers = { "idempotency-key": "evt-once" };
    await api("POST", "/v1/payments", { key: m.sandboxKey, body: { amount: "2.000000" }, headers });
    await api("POST", "/v1/payments", { key: m.sandboxKey, body: { amount: "2.000000" }, headers });
    expect((await api("GET", "/v1/events", { key: m.sandboxKey })).json.data).toHaveLength(1);
    expect((await api("GET", "/v1/events", { key: m.liveKey })).json.data).toHaveLength(0);
  });

  it("lists newest first with paging and a type filter; isolated by merchant and mode", async () => {
    const m = await newMerchant();
    const other = await newMerchant();
    for (let i = 0; i < 3; i++)
      await api("POST", "/v1/payments", { key: m.sandboxKey, body: { amount: `${i + 1}.000000` } });
    const page = (await api("GET", "/v1/events?limit=2", { key: m.sandboxKey })).json;
    expect(page.data.map((e: { data: { object: { amount: string } } }) => e.data.object.amount)).toEqual([
      "3.000000",
      "2.000000",
    ]);
    expect(page.has_more).toBe(true);
    const rest = (await api("GET", `/v1/events?limit=2&starting_after=${page.data[1].id}`, { key: m.sandboxKey })).json;
    expect(rest.data).toHaveLength(1);
    expect(rest.has_more).toBe(false);
    expect(
      (await api("GET", "/v1/events?type=payment.awaiting_payment", { key: m.sandboxKey })).json.data,
    ).toHaveLength(3);
    expect((await api("GET", "/v1/events?type=payment.confirmed", { key: m.sandboxKey })).json.data).toHaveLength(0);
    expectError(
      await api("GET", "/v1/events?type=payment.paid", { key: m.sandboxKey }),
      "invalid_request_error",
      400,
      "type",
    );
    expect((await api("GET", "/v1/events", { key: other.sandboxKey })).json.data).toEqual([]);
    expect((await api("GET", "/v1/events", { key: m.liveKey })).json.data).toEqual([]);
    expectError(await api("GET", `/v1/events/${page.data[0].id}`, { key: other.sandboxKey }), "not_found", 404, "id");
    expectError(await api("GET", `/v1/events/${page.data[0].id}`, { key: m.liveKey }), "not_found", 404, "id");
  });
});
