import { describe, expect, it } from "vitest";
import { api, expectError, newMerchant } from "../helpers/api";

describe("tenant and mode isolation", () => {
  it("a merchant sees only its own links, and sandbox never sees live", async () => {
    const a = await newMerchant("A");
    const b = await newMerchant("B");
    const aSandbox = (await api("POST", "/v1/payment-links", { key: a.sandboxKey, body: { amount: "1" } })).json;
    const aLive = (await api("POST", "/v1/payment-links", { key: a.liveKey, body: { amount: "2" } })).json;
    const bSandbox = (await api("POST", "/v1/payment-links", { key: b.sandboxKey, body: { amount: "3" } })).json;

    const ids = async (key: string) =>
      (await api("GET", "/v1/payment-links", { key })).json.data.map((l: { id: string }) => l.id);
    expect(await ids(a.sandboxKey)).toEqual([aSandbox.id]);
    expect(await ids(a.liveKey)).toEqual([aLive.id]);
    expect(await ids(b.sandboxKey)).toEqual([bSandbox.id]);
    expect(await ids(b.liveKey)).toEqual([]);
  });

  it("retrieving another merchant's or the other mode's link is 404 not_found, like a missing one", async () => {
    const a = await newMerchant("A");
    const b = await newMerchant("B");
    const link = (await api("POST", "/v1/payment-links", { key: a.sandboxKey, body: { amount: "9.99" } })).json;
    const own = await api("GET", `/v1/payment-links/${link.id}`, { key: a.sandboxKey });
    expect(own.status).toBe(200);
    expect(own.json).toEqual(link);
    for (const key of [b.sandboxKey, a.liveKey, b.liveKey]) {
      const err = expectError(await api("GET", `/v1/payment-links/${link.id}`, { key }), "not_found", 404, "id");
      expect(err.message).toBe(`No such payment_link: '${link.id}'`);
    }
    expectError(await api("GET", "/v1/payment-links/pl_doesnotexist", { key: a.sandboxKey }), "not_found", 404, "id");
  });

  it("lists newest first", async () => {
    const m = await newMerchant();
    const created: string[] = [];
    for (const amount of ["1", "2", "3"])
      created.push((await api("POST", "/v1/payment-links", { key: m.sandboxKey, body: { amount } })).json.id);
    const listed = (await api("GET", "/v1/payment-links", { key: m.sandboxKey })).json.data.map(
      (l: { id: string }) => l.id,
    );
    expect(listed).toEqual(created.reverse());
  });
});
