import { describe, expect, it } from "vitest";
import type { CheckoutStatus } from "@/lib/money-in/checkout/checkout-status";
import { PAYMENT_CHANGED, streamCheckoutStatus } from "@/lib/money-in/checkout/stream-status";
import { changeFeed } from "@/lib/platform/db/change-feed";
import { getDb, getPool } from "@/lib/platform/db/client";
import { query } from "@/lib/platform/db/query";
import { api, newMerchant } from "../helpers/api";
import { countingDb } from "../helpers/counting-db";
import { until } from "../helpers/started-service";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe("the checkout's status stream is pushed", () => {
  it(
    "reads the payment only when it changes, and a change made while " +
      "the feed's connection is down still reaches the page",
    async () => {
      const m = await newMerchant();
      const created = (
        await api("POST", "/v1/payments", { key: m.sandboxKey, body: { amount: "1.000000", chain: "eth" } })
      ).json;
      // The process already listens, so the stream's first read is its only one until something changes.
      const warm = changeFeed().subscribe(PAYMENT_CHANGED, "warm-up", () => {});
      await changeFeed().whenListening(PAYMENT_CHANGED);
      const counting = countingDb();
      const abort = new AbortController();
      const seen: CheckoutStatus[] = [];
      const reading = (async () => {
        for await (const status of streamCheckoutStatus(counting.db, created.id, { signal: abort.signal }))
          seen.push(status);
      })();
      try {
        await until("the first status", async () => seen.length === 1, 5_000);
        const afterFirst = counting.statements();
        await sleep(2_500);
        expect(counting.statements()).toBe(afterFirst); // polling each second would have read twice by now

        const confirmations = (n: number) =>
          query(getDb(), "update payments set confirmations = $2 where id = $1", [created.id, n]);
        await confirmations(1);
        await until("the change", async () => seen.at(-1)?.confirmations === 1, 5_000);
        expect(counting.statements()).toBeGreaterThan(afterFirst);

        // The listening connection dies and the change commits before it is back: only the wake on reconnect
        // (every stream reads again) brings it to the page.
        const pid = changeFeed().pid!;
        const { rows } = await getPool().query("select pg_terminate_backend($1, 5000) as gone", [pid]);
        expect(rows[0].gone).toBe(true);
        await confirmations(2);
        await until("the change made while nobody listened", async () => seen.at(-1)?.confirmations === 2, 10_000);

        await query(getDb(), "update payments set status = 'expired', closed_at = now() where id = $1", [created.id]);
        await Promise.race([reading, sleep(5_000).then(() => Promise.reject(new Error("stream did not end")))]);
        expect(seen.map((s) => [s.status, s.confirmations])).toEqual([
          ["awaiting_payment", 0],
          ["awaiting_payment", 1],
          ["awaiting_payment", 2],
          ["expired", 2],
        ]);
      } finally {
        abort.abort();
        warm();
        await counting.close();
      }
    },
  );
});
