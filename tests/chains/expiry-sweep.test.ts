import { describe, expect, it } from "vitest";
import { getDb, inTransaction } from "@/lib/platform/db/client";
import { query } from "@/lib/platform/db/query";
import { expireOverduePayments, WATCHER_GRACE_MS } from "@/lib/money-in/payments/expire-payment";
import { api, newMerchant } from "../helpers/api";
import { paymentEvents } from "../helpers/chains";

describe("the overdue-payment sweep (a chain's watcher is down or behind)", () => {
  it("expires a chain payment only once it is overdue by the grace period, with its event, once", async () => {
    const m = await newMerchant();
    const payment = (
      await api("POST", "/v1/payments", { key: m.sandboxKey, body: { amount: "2.000000", chain: "polygon" } })
    ).json;
    // A payment created long ago, seen by a sweep at two moments — in one transaction, so no running watcher
    // sees (and expires) it first.
    const outcomes = await inTransaction(getDb(), async (tx) => {
      await query(
        tx,
        "update payments set created_at = '2000-01-01T00:00:00Z', expires_at = '2000-01-01T00:30:00Z' where id = $1",
        [payment.id],
      );
      const early = await expireOverduePayments(
        tx,
        new Date(Date.parse("2000-01-01T00:30:00Z") + WATCHER_GRACE_MS - 1_000),
      );
      const late = await expireOverduePayments(tx, new Date(Date.parse("2000-01-01T00:30:00Z") + WATCHER_GRACE_MS));
      const again = await expireOverduePayments(tx, new Date(Date.parse("2000-01-01T00:30:00Z") + WATCHER_GRACE_MS));
      return [early, late, again];
    });
    expect(outcomes).toEqual([0, 1, 0]);
    expect((await api("GET", `/v1/payments/${payment.id}`, { key: m.sandboxKey })).json.status).toBe("expired");
    expect((await paymentEvents(m.sandboxKey, payment.id)).map((e) => e.type)).toEqual([
      "payment.awaiting_payment",
      "payment.expired",
    ]);
  });

  it("expires a payment that never got its address (intent_created, an empty live Solana pool)", async () => {
    const m = await newMerchant();
    const payment = (
      await api("POST", "/v1/payments", { key: m.sandboxKey, body: { amount: "2.000000", chain: "solana" } })
    ).json;
    const expired = await inTransaction(getDb(), async (tx) => {
      await query(
        tx,
        `update payments set status = 'intent_created', deposit_address = null, watch_key = null,
           created_at = '2001-01-01T00:00:00Z', expires_at = '2001-01-01T00:30:00Z' where id = $1`,
        [payment.id],
      );
      return expireOverduePayments(tx, new Date(Date.parse("2001-01-01T00:30:00Z") + WATCHER_GRACE_MS));
    });
    expect(expired).toBe(1);
    const after = (await api("GET", `/v1/payments/${payment.id}`, { key: m.sandboxKey })).json;
    expect(after.status).toBe("expired");
    expect((await paymentEvents(m.sandboxKey, payment.id)).map((e) => e.type).at(-1)).toBe("payment.expired");
  });
});
