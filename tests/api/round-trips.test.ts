import { afterAll, describe, expect, it } from "vitest";
import { GET as getLink } from "@/app/v1/payment-links/[id]/route";
import { POST as createLink, GET as listLinks } from "@/app/v1/payment-links/route";
import { POST as createPayment } from "@/app/v1/payments/route";
import { API_KEY_CHANGED } from "@/lib/identity/api-keys/verified-key-cache";
import { changeFeed } from "@/lib/platform/db/change-feed";
import { newKey, newMerchant } from "../helpers/api";
import { countRoundTrips } from "../helpers/round-trips";

// The /v1 routes run here in the test process, on its pipelining pool, as the web runs them.
const trips = countRoundTrips();
afterAll(() => trips.restore());

const call = async (
  route: (req: Request, ctx: { params: Promise<Record<string, string>> }) => Promise<Response>,
  req: Request,
  params: Record<string, string> = {},
) => {
  trips.take();
  const res = await route(req, { params: Promise.resolve(params) });
  return { res, json: await res.json(), trips: trips.take() };
};

const post = (key: string, idempotencyKey: string, body: unknown) =>
  new Request("http://localhost/v1/payment-links", {
    method: "POST",
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json", "idempotency-key": idempotencyKey },
    body: JSON.stringify(body),
  });

describe("database round trips per request", () => {
  it(
    "an idempotent POST makes three (key and window; BEGIN and claim; insert, stored response and COMMIT), a GET " +
      "two; a replay writes nothing",
    async () => {
      const m = await newMerchant();
      // The process's change feed is listening from the first request on; each key below is new to the cache.
      await call(createLink, post(m.liveKey, "warm-up", { amount: "1" }));
      await changeFeed().whenListening(API_KEY_CHANGED);

      const created = await call(createLink, post(m.sandboxKey, "rt-1", { amount: "2.5" }));
      expect(created.res.status).toBe(200);
      expect(created.trips).toBeLessThanOrEqual(3);

      const read = await call(
        getLink,
        new Request(`http://localhost/v1/payment-links/${created.json.id}`, {
          headers: { authorization: `Bearer ${m.sandboxKey}` },
        }),
        { id: created.json.id },
      );
      expect(read.res.status).toBe(200);
      expect(read.json).toEqual(created.json);
      expect(read.trips).toBeLessThanOrEqual(2);

      // A retry with the key replays the answer and writes nothing.
      const again = await call(createLink, post(m.sandboxKey, "rt-1", { amount: "2.5" }));
      expect(again.res.status).toBe(200);
      expect(again.res.headers.get("idempotent-replayed")).toBe("true");
      expect(again.json).toEqual(created.json);
      const list = await call(
        listLinks,
        new Request("http://localhost/v1/payment-links", { headers: { authorization: `Bearer ${m.sandboxKey}` } }),
      );
      expect(list.json.data.map((l: { id: string }) => l.id)).toEqual([created.json.id]);
    },
  );

  it(
    "a payment makes six: key and window; BEGIN and claim; its address's index; the payment; its event, the " +
      "endpoints read beside it; response and COMMIT",
    async () => {
      const m = await newMerchant();
      const pay = async (key: string, idempotencyKey: string) =>
        call(
          createPayment,
          new Request("http://localhost/v1/payments", {
            method: "POST",
            headers: {
              authorization: `Bearer ${key}`,
              "content-type": "application/json",
              "idempotency-key": idempotencyKey,
            },
            body: JSON.stringify({ amount: "1.000000", chain: "polygon" }),
          }),
        );
      await pay(m.sandboxKey, "warm-up"); // the sandbox seed read once per process
      for (const n of [1, 2]) {
        const key = await newKey(m.id, "sandbox"); // not cached: the same count with either rate-limit store
        const created = await pay(key.secret, `pay-${n}`);
        expect(created.res.status).toBe(200);
        expect(created.trips).toBeLessThanOrEqual(6);
      }
    },
  );
});
