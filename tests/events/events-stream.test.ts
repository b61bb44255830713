import { afterAll, describe, expect, it } from "vitest";
import { revokeApiKey } from "@/lib/identity/api-keys/revoke-api-key";
import { readEventStream, type ReceivedEvent } from "@/lib/cli/read-event-stream";
import { recordEvents } from "@/lib/notify/events/record-event";
import { currentStreamCursor, EVENT_CREATED, readStreamPage, streamEvents } from "@/lib/notify/events/stream-events";
import { changeFeed } from "@/lib/platform/db/change-feed";
import { type Db, getDb, getPool } from "@/lib/platform/db/client";
import { drizzle } from "drizzle-orm/node-postgres";
import { execute } from "@/lib/platform/db/query";
import { api, expectError, newKey, newMerchant, webUrls } from "../helpers/api";
import { countingDb } from "../helpers/counting-db";
import { until } from "../helpers/started-service";

/** An open GET /v1/events/stream: its answer, and its events one by one. */
async function openStream(key: string, opts: { lastEventId?: string; types?: string } = {}) {
  const controller = new AbortController();
  const res = await fetch(`${webUrls()[0]}/v1/events/stream${opts.types ? `?types=${opts.types}` : ""}`, {
    headers: { authorization: `Bearer ${key}`, ...(opts.lastEventId ? { "last-event-id": opts.lastEventId } : {}) },
    signal: controller.signal,
  });
  const events = res.body ? readEventStream(res.body) : null;
  return {
    res,
    /** The next event, or a failure after `ms`. */
    next: async (ms = 10_000): Promise<ReceivedEvent> => {
      const timeout = new Promise<never>((_, reject) => setTimeout(() => reject(new Error("no event came")), ms));
      const next = await Promise.race([events!.next(), timeout]);
      if (next.done) throw new Error("the stream ended");
      return next.value;
    },
    close: () => controller.abort(),
  };
}

/** The statements a counting handle has sent, once a second passes without one more. */
async function settledCount(counting: ReturnType<typeof countingDb>, what: string): Promise<number> {
  let idle = counting.statements();
  await until(
    what,
    async () => {
      await new Promise((r) => setTimeout(r, 1_000));
      const settled = counting.statements() === idle;
      idle = counting.statements();
      return settled;
    },
    15_000,
  );
  return idle;
}

const createPayment = async (key: string, amount = "1.000000") =>
  (await api("POST", "/v1/payments", { key, body: { amount, chain: "polygon" } })).json as { id: string };

const eventOf = async (key: string, paymentId: string) => {
  const list = (await api("GET", "/v1/events?type=payment.awaiting_payment&limit=100", { key })).json;
  return list.data.find((e: { data: { object: { id: string } } }) => e.data.object.id === paymentId);
};

describe("GET /v1/events/stream", () => {
  it(
    "sends each new event once, as deliveries carry it; " +
      "resumes after Last-Event-ID; isolated by merchant and mode",
    async () => {
      const m = await newMerchant();
      const other = await newMerchant();
      const stream = await openStream(m.sandboxKey);
      expect(stream.res.status).toBe(200);
      expect(stream.res.headers.get("content-type")).toBe("text/event-stream; charset=utf-8");
      expect(stream.res.headers.get("x-api-version")).toBe("1");
      expect(stream.res.headers.get("request-id")).toMatch(/^req_/);

      await createPayment(other.sandboxKey); // another merchant's
      // refused: no live chain
      await api("POST", "/v1/payments", { key: m.liveKey, body: { amount: "1.000000", chain: "polygon" } });
      const first = await createPayment(m.sandboxKey);
      const second = await createPayment(m.sandboxKey, "2.000000");
      const a = await stream.next();
      const b = await stream.next();
      stream.close();
      const listedA = await eventOf(m.sandboxKey, first.id);
      const listedB = await eventOf(m.sandboxKey, second.id);
      expect(a).toEqual({ id: listedA.id, event: "payment.awaiting_payment", data: JSON.stringify(listedA) });
      expect(b).toEqual({ id: listedB.id, event: "payment.awaiting_payment", data: JSON.stringify(listedB) });

      // Restarted after the first: the second comes again, then a new one; nothing before the first.
      const resumed = await openStream(m.sandboxKey, { lastEventId: listedA.id });
      expect((await resumed.next()).id).toBe(listedB.id);
      const third = await createPayment(m.sandboxKey, "3.000000");
      expect((await resumed.next()).id).toBe((await eventOf(m.sandboxKey, third.id)).id);
      resumed.close();
    },
  );

  it("types filters what is sent", async () => {
    const m = await newMerchant();
    const stream = await openStream(m.sandboxKey, { types: "payout.failed,payment.expired" });
    expect(stream.res.status).toBe(200);
    const object = (id: string) => ({ id, object: "payout" });
    const [, failed] = await recordEvents(getDb(), [
      { merchantId: m.id, mode: "sandbox", type: "payout.confirmed", object: object("po_stream_a") },
      { merchantId: m.id, mode: "sandbox", type: "payout.failed", object: object("po_stream_b") },
    ]);
    await createPayment(m.sandboxKey); // payment.awaiting_payment: not asked for
    const [expired] = await recordEvents(getDb(), [
      { merchantId: m.id, mode: "sandbox", type: "payment.expired", object: object("pay_stream_c") },
    ]);
    expect((await stream.next()).id).toBe(failed!.id);
    expect(await stream.next()).toMatchObject({ id: expired!.id, event: "payment.expired" });
    stream.close();
  });

  it(
    "refuses: a Last-Event-ID not of this merchant and mode, " +
      "an unknown type, a key without events:read, an 11th stream",
    async () => {
      const m = await newMerchant();
      const other = await newMerchant();
      await createPayment(other.sandboxKey);
      const theirs = (await api("GET", "/v1/events", { key: other.sandboxKey })).json.data[0].id;
      for (const id of [theirs, "evt_doesnotexist"]) {
        const reply = await api("GET", "/v1/events/stream", { key: m.sandboxKey, headers: { "last-event-id": id } });
        expectError(reply, "invalid_request_error", 400, "Last-Event-ID");
      }
      const live = await api("GET", "/v1/events/stream", { key: other.liveKey, headers: { "last-event-id": theirs } });
      expectError(live, "invalid_request_error", 400, "Last-Event-ID");
      expectError(
        await api("GET", "/v1/events/stream?types=payment.confirmed,payment.nope", { key: m.sandboxKey }),
        "invalid_request_error",
        400,
        "types",
      );
      const narrow = await newKey(m.id, "sandbox", ["payments:read"]);
      expectError(await api("GET", "/v1/events/stream", { key: narrow.secret }), "forbidden", 403);

      const open = [];
      for (let i = 0; i < 10; i++) open.push(await openStream(m.sandboxKey));
      expect(open.map((s) => s.res.status)).toEqual(Array(10).fill(200));
      const eleventh = await api("GET", "/v1/events/stream", { key: m.sandboxKey });
      expectError(eleventh, "rate_limit_exceeded", 429);
      open.pop()!.close();
      // The closed stream's place is given back once the server notices (it stops reading at once).
      let again = await openStream(m.sandboxKey);
      for (let i = 0; again.res.status === 429 && i < 50; i++) {
        await new Promise((r) => setTimeout(r, 100));
        again = await openStream(m.sandboxKey);
      }
      expect(again.res.status).toBe(200);
      for (const s of [...open, again]) s.close();
    },
  );

  it(
    "an event whose transaction commits late is read after it commits, " + "never skipped by a reader that moved on",
    async () => {
      const m = await newMerchant();
      const owner = { merchantId: m.id, mode: "sandbox" as const };
      const pool = getPool();
      const start = await readStreamPage(getDb(), owner, { xid: "0", seq: "0" }, null);
      // A transaction that records its event first (an older transaction id) and commits last.
      const slow = await pool.connect();
      try {
        await slow.query("begin");
        const [late] = await recordEvents(drizzle(slow) as unknown as Db, [
          { merchantId: m.id, mode: "sandbox", type: "payout.failed", object: { id: "po_late" } },
        ]);
        const [early] = await recordEvents(getDb(), [
          { merchantId: m.id, mode: "sandbox", type: "payout.confirmed", object: { id: "po_early" } },
        ]);
        // The committed event waits behind the open transaction: a reader passing it now would skip the late one.
        const meanwhile = await readStreamPage(getDb(), owner, start.cursor, null);
        expect(meanwhile.events).toEqual([]);
        await slow.query("commit");
        // A reader moving on page by page: another test's transaction elsewhere in the cluster may hold the
        // early one back a moment longer, and the reader that took the late one alone must still get it.
        const read: string[] = [];
        let cursor = start.cursor;
        await until(
          "both events read",
          async () => {
            const page = await readStreamPage(getDb(), owner, cursor, null);
            read.push(...page.events.map((e) => e.id));
            cursor = page.cursor;
            return read.length >= 2;
          },
          20_000,
        );
        expect(read).toEqual([late!.id, early!.id]);
      } finally {
        slow.release();
      }
    },
  );

  it(
    "is pushed: reads nothing while no event is written, and finds an event held back by an older transaction once " +
      "that ends",
    async () => {
      const m = await newMerchant();
      const owner = { merchantId: m.id, mode: "sandbox" as const };
      const warm = changeFeed().subscribe(EVENT_CREATED, "warm-up", () => {});
      await changeFeed().whenListening(EVENT_CREATED);
      const counting = countingDb();
      const abort = new AbortController();
      const got: string[] = [];
      const cursor = await currentStreamCursor(getDb());
      const reading = (async () => {
        for await (const event of streamEvents(counting.db, owner, { cursor, types: null, signal: abort.signal }))
          got.push(event.id);
      })();
      const slow = await getPool().connect();
      try {
        await until("the first read", async () => counting.statements() > 0, 5_000);
        // Its first read also waits for the transactions in flight then (other tests' too) to end: once they
        // have, it reads nothing more until an event is written.
        const idle = await settledCount(counting, "the stream settled");
        await new Promise((r) => setTimeout(r, 2_500));
        expect(counting.statements()).toBe(idle);

        // An older transaction that writes no event holds the new one back; its end notifies nobody, so the
        // stream must look again by itself until the event is readable.
        await slow.query("begin");
        await slow.query("select pg_current_xact_id()");
        const [event] = await recordEvents(getDb(), [
          { merchantId: m.id, mode: "sandbox", type: "payout.confirmed", object: { id: "po_held" } },
        ]);
        await new Promise((r) => setTimeout(r, 500));
        expect(got).toEqual([]);
        await slow.query("commit");
        await until("the held-back event", async () => got.length > 0, 10_000);
        expect(got).toEqual([event!.id]);
      } finally {
        slow.release();
        abort.abort();
        await reading;
        warm();
        await counting.close();
      }
    },
  );

  it("an owner's streams share their reads: an event costs about one read, not one per open stream", async () => {
    const m = await newMerchant();
    const owner = { merchantId: m.id, mode: "sandbox" as const };
    const warm = changeFeed().subscribe(EVENT_CREATED, "warm-up", () => {});
    await changeFeed().whenListening(EVENT_CREATED);
    const counting = countingDb();
    const abort = new AbortController();
    const cursor = await currentStreamCursor(getDb());
    const got = Array.from({ length: 10 }, () => [] as string[]);
    const readers = got.map(async (list) => {
      for await (const event of streamEvents(counting.db, owner, { cursor, types: null, signal: abort.signal }))
        list.push(event.id);
    });
    try {
      // Each stream's first read is its own, and waits for the transactions in flight then: let them settle.
      await until("the first reads", async () => counting.statements() >= 10, 5_000);
      const idle = await settledCount(counting, "the streams settled");
      const [event] = await recordEvents(getDb(), [
        { merchantId: m.id, mode: "sandbox", type: "payout.confirmed", object: { id: "po_shared" } },
      ]);
      await until("the event on every stream", async () => got.every((list) => list.length === 1), 10_000);
      expect(got.flat()).toEqual(Array(10).fill(event!.id));
      // Unshared, each of the ten streams would read at least once.
      expect(counting.statements() - idle).toBeLessThan(10);
    } finally {
      abort.abort();
      await Promise.all(readers);
      warm();
      await counting.close();
    }
  });

  it("sends an event committed before it started listening that an older transaction still held back", async () => {
    const m = await newMerchant();
    const owner = { merchantId: m.id, mode: "sandbox" as const };
    const cursor = await currentStreamCursor(getDb());
    const slow = await getPool().connect();
    const abort = new AbortController();
    const got: string[] = [];
    let reading: Promise<void> | undefined;
    try {
      await slow.query("begin");
      await slow.query("select pg_current_xact_id()");
      // Committed, and its notification handed out (to an observer) before the stream listens.
      const heard: (string | null)[] = [];
      const observer = changeFeed().subscribe(EVENT_CREATED, `${m.id}:sandbox`, (d) => heard.push(d));
      await changeFeed().whenListening(EVENT_CREATED);
      const [event] = await recordEvents(getDb(), [
        { merchantId: m.id, mode: "sandbox", type: "payout.confirmed", object: { id: "po_before" } },
      ]);
      await until("the event's notification", async () => heard.some((d) => d !== null), 5_000);
      observer();
      reading = (async () => {
        for await (const e of streamEvents(getDb(), owner, { cursor, types: null, signal: abort.signal }))
          got.push(e.id);
      })();
      await new Promise((r) => setTimeout(r, 500));
      expect(got).toEqual([]);
      await slow.query("commit");
      await until("the event committed before the stream started", async () => got.length > 0, 10_000);
      expect(got).toEqual([event!.id]);
    } finally {
      slow.release();
      abort.abort();
      await reading;
    }
  });

  it(
    "a merchant's keys together hold at most 20 streams in a mode per process; " + "other merchants are not affected",
    async () => {
      const m = await newMerchant();
      const keys = await Promise.all([1, 2, 3].map(() => newKey(m.id, "sandbox", ["events:read"])));
      const open = [];
      for (const key of keys.slice(0, 2)) for (let i = 0; i < 10; i++) open.push(await openStream(key.secret));
      expect(open.map((s) => s.res.status)).toEqual(Array(20).fill(200));
      const refused = await api("GET", "/v1/events/stream", { key: keys[2]!.secret });
      expect(expectError(refused, "rate_limit_exceeded", 429).message).toMatch(/already has 20 open event streams/);
      expect(refused.headers.get("retry-after")).toBe("5");
      const live = await openStream(m.liveKey); // the other mode has its own 20
      const other = await openStream((await newMerchant()).sandboxKey);
      expect([live.res.status, other.res.status]).toEqual([200, 200]);
      for (const s of [...open, live, other]) s.close();
    },
  );

  it("ends when its key is revoked or loses events:read: nothing more is sent on it", async () => {
    const m = await newMerchant();
    const changes = {
      revoked: (id: string) => revokeApiKey(getDb(), id),
      "re-scoped": (id: string) =>
        execute(getDb(), "update api_keys set scopes = $2 where id = $1", [id, ["payments:read"]]),
    };
    for (const [what, change] of Object.entries(changes)) {
      const key = await newKey(m.id, "sandbox", ["events:read"]);
      const stream = await openStream(key.secret);
      await createPayment(m.sandboxKey);
      expect((await stream.next()).event).toBe("payment.awaiting_payment");
      const at = performance.now();
      await change(key.id);
      // Without the watch it stays open for 15 minutes: "no event came" after 5 s, not "the stream ended".
      await expect(stream.next(5_000), `the stream of a key ${what}`).rejects.toThrow("the stream ended");
      ended.push(performance.now() - at);
      await createPayment(m.sandboxKey);
      expectError(
        await api("GET", "/v1/events", { key: key.secret }),
        what === "revoked" ? "unauthorized" : "forbidden",
        what === "revoked" ? 401 : 403,
      );
    }
  });
});

/** How long each revoked or re-scoped stream took to end (ms), printed for the record. */
const ended: number[] = [];
afterAll(() => {
  if (ended.length)
    console.log(`streams ended ${ended.map((ms) => ms.toFixed(0)).join(", ")} ms after the key changed`);
});
