import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resetConfig } from "@/lib/platform/config/env";
import { getDb, getPool } from "@/lib/platform/db/client";
import { query } from "@/lib/platform/db/query";
import { startWorker, type JobRunner } from "@/worker/start-jobs";
import { createWebhookEndpoint } from "@/lib/notify/webhooks/create-webhook-endpoint";
import { deliverWebhooks, MAX_IN_FLIGHT_PER_ENDPOINT } from "@/lib/notify/webhooks/deliver-webhook";
import { newId } from "@/lib/kernel/random";
import { retryDelayMs } from "@/lib/notify/webhooks/retry-schedule";
import { sendWebhook } from "@/lib/notify/webhooks/send-webhook";
import { api, newMerchant } from "../helpers/api";
import { startReceiver, verifySignature, waitFor } from "../helpers/webhook-receiver";

// This file's worker delivers to a loopback receiver (the sandbox switch) on a fast clock (×0.02).
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
  await receiver?.close(); // first, so attempts hanging on it end now
  await worker?.stop();
});

async function merchantWithEndpoint(path: string, events: string[] = []) {
  const m = await newMerchant();
  const { row, secret } = await createWebhookEndpoint(
    getDb(),
    { merchantId: m.id, mode: "sandbox" },
    { url: receiver.url(path), events: events as never },
  );
  return { m, endpointId: row.id, secret };
}

const attemptsOf = async (endpointId: string) =>
  query<{ attempt: number; status_code: number | null; success: boolean; error: string | null; started_at: Date }>(
    getDb(),
    `select a.attempt, a.status_code, a.success, a.error, a.started_at
     from webhook_attempts a join webhook_deliveries d on d.id = a.delivery_id
     where d.endpoint_id = $1 order by a.attempt`,
    [endpointId],
  );

describe("signed webhook delivery", () => {
  it("delivers the event body, signed with the endpoint secret, to matching endpoints only", async () => {
    const { m, secret } = await merchantWithEndpoint("/all");
    const filtered = await createWebhookEndpoint(
      getDb(),
      { merchantId: m.id, mode: "sandbox" },
      { url: receiver.url("/confirmed-only"), events: ["payment.confirmed"] },
    );
    const payment = (
      await api("POST", "/v1/payments", {
        key: m.sandboxKey,
        body: { amount: "7.000000", chain: "eth", metadata: { order: "42" } },
      })
    ).json;
    const [hit] = await waitFor(() => receiver.at("/all").length > 0 && receiver.at("/all"));
    expect(hit!.headers["content-type"]).toBe("application/json");
    expect(verifySignature(hit!.headers["service-signature"] as string, hit!.body, secret)).toBe(true);
    expect(verifySignature(hit!.headers["service-signature"] as string, hit!.body, filtered.secret)).toBe(false);
    const event = JSON.parse(hit!.body);
    expect(event).toMatchObject({
      object: "event",
      type: "payment.awaiting_payment",
      livemode: false,
      data: { object: payment },
    });
    const stored = (await api("GET", `/v1/events/${event.id}`, { key: m.sandboxKey })).text;
    expect(hit!.body).toBe(stored);
    await new Promise((r) => setTimeout(r, 300));
    expect(receiver.at("/confirmed-only")).toHaveLength(0);
  });

  it("retries after failures on the 5/10/20/40/80 schedule with the same id and body, then succeeds", async () => {
    const { m, endpointId, secret } = await merchantWithEndpoint("/flaky");
    receiver.failFirst("/flaky", [500, 503, 404]);
    await api("POST", "/v1/payments", { key: m.sandboxKey, body: { amount: "8.000000" } });
    const hits = await waitFor(() => receiver.at("/flaky").length >= 4 && receiver.at("/flaky"));
    expect(new Set(hits.map((h) => h.body)).size).toBe(1);
    for (const h of hits) expect(verifySignature(h.headers["service-signature"] as string, h.body, secret)).toBe(true);
    await new Promise((r) => setTimeout(r, 200));
    const attempts = await attemptsOf(endpointId);
    expect(attempts.map((a) => [a.attempt, a.status_code, a.success])).toEqual([
      [1, 500, false],
      [2, 503, false],
      [3, 404, false],
      [4, 200, true],
    ]);
    // Spacing follows the (scaled) schedule: each wait at least its delay.
    for (let i = 1; i < hits.length; i++)
      expect(hits[i]!.at - hits[i - 1]!.at).toBeGreaterThanOrEqual(retryDelayMs(i) - 20);
    await new Promise((r) => setTimeout(r, 500));
    expect(receiver.at("/flaky")).toHaveLength(4);
  });

  it("gives up after 6 attempts and records every one", async () => {
    const { m, endpointId } = await merchantWithEndpoint("/down");
    receiver.failFirst("/down", [500, 500, 500, 500, 500, 500, 500]);
    await api("POST", "/v1/payments", { key: m.sandboxKey, body: { amount: "9.000000" } });
    await waitFor(() => receiver.at("/down").length >= 6, 20_000);
    await new Promise((r) => setTimeout(r, 800));
    expect(receiver.at("/down")).toHaveLength(6);
    const attempts = await attemptsOf(endpointId);
    expect(attempts).toHaveLength(6);
    const [delivery] = await query<{ status: string; attempt_count: number }>(
      getDb(),
      "select status, attempt_count from webhook_deliveries where endpoint_id = $1",
      [endpointId],
    );
    expect(delivery).toEqual({ status: "failed", attempt_count: 6 });
  });

  it("never follows redirects", async () => {
    const { m, endpointId } = await merchantWithEndpoint("/moved");
    receiver.redirect("/moved", receiver.url("/target"));
    await api("POST", "/v1/payments", { key: m.sandboxKey, body: { amount: "1.000000" } });
    const attempts = await waitFor(() => receiver.at("/moved").length > 0 && receiver.at("/moved"));
    expect(attempts).toHaveLength(1);
    // The attempt's row is written once its exchange has ended (a followed redirect would have come first).
    const [first] = await waitFor(async () => {
      const recorded = await attemptsOf(endpointId);
      return recorded.length > 0 && recorded;
    });
    expect(first).toMatchObject({ status_code: 302, success: false });
    expect(receiver.at("/target")).toHaveLength(0);
  });
});

describe("SSRF at send time", () => {
  it("refuses private targets when the switch is off", async () => {
    const result = await sendWebhook({
      url: receiver.url("/private"),
      body: "{}",
      secret: "whsec_x",
      allowPrivate: false,
    });
    expect(result.success).toBe(false);
    expect(result.error).toBe("refused: url must use https");
    const tls = await sendWebhook({
      url: `https://127.0.0.1:${receiver.port}/private`,
      body: "{}",
      secret: "whsec_x",
      allowPrivate: false,
    });
    expect(tls.error).toMatch(/refused: .*127\.0\.0\.1, which is not a public address/);
    expect(receiver.at("/private")).toHaveLength(0);
  });

  it("connects to the address it vetted: a DNS answer that changes after the check is never used", async () => {
    let lookups = 0;
    const resolve = async () => (lookups++ === 0 ? ["127.0.0.1"] : ["10.255.255.1"]);
    const result = await sendWebhook({
      url: `http://receiver.test:${receiver.port}/pinned`,
      body: '{"a":1}',
      secret: "whsec_x",
      allowPrivate: true,
      resolve,
    });
    expect(result).toMatchObject({ success: true, statusCode: 200 });
    expect(lookups).toBe(1);
    expect(receiver.at("/pinned")[0]!.headers.host).toBe(`receiver.test:${receiver.port}`);
  });

  /** A receiver of the test's own (its connections counted from zero), closed after `body`. */
  async function withOwnReceiver(body: (own: Awaited<ReturnType<typeof startReceiver>>) => Promise<void>) {
    const own = await startReceiver();
    try {
      await body(own);
    } finally {
      await own.close();
    }
  }
  const post = (url: string, n: number) =>
    sendWebhook({ url, body: `{"n":${n}}`, secret: "whsec_x", allowPrivate: true });

  it("keeps the connection to an endpoint open between deliveries: five in a row, one connection", () =>
    withOwnReceiver(async (own) => {
      for (let i = 0; i < 5; i++)
        expect(await post(own.url("/kept"), i)).toMatchObject({ success: true, statusCode: 200 });
      expect(own.at("/kept").map((r) => r.body)).toEqual([0, 1, 2, 3, 4].map((n) => `{"n":${n}}`));
      expect(own.connections()).toBe(1);
    }));

  it(
    "a kept connection the endpoint closes as the next delivery is written: " + "that delivery goes on a new one, once",
    () =>
      withOwnReceiver(async (own) => {
        own.drop("/drop", "reused");
        expect(await post(own.url("/drop"), 1)).toMatchObject({ success: true, statusCode: 200 });
        expect(await post(own.url("/drop"), 2)).toMatchObject({ success: true, statusCode: 200 });
        expect(own.at("/drop").map((r) => r.body)).toEqual(['{"n":1}', '{"n":2}']);
        expect(own.connections()).toBe(2); // the kept one, then a new one for the second
      }),
  );

  it("a new connection closed without an answer is a failed attempt, not sent again at once", () =>
    withOwnReceiver(async (own) => {
      own.drop("/gone", "always");
      const sent = await post(own.url("/gone"), 1);
      expect(sent).toMatchObject({ success: false, statusCode: null });
      expect(sent.error).toMatch(/socket hang up|ECONNRESET/);
      expect(own.connections()).toBe(1);
    }));

  it("a name that resolves to a private address is refused before any connection", async () => {
    const result = await sendWebhook({
      url: `https://hooks.shop.test/x`,
      body: "{}",
      secret: "whsec_x",
      allowPrivate: false,
      resolve: async () => ["192.168.0.10"],
    });
    expect(result).toMatchObject({ success: false, statusCode: null });
    expect(result.error).toMatch(/192\.168\.0\.10/);
  });
});

describe("a worker killed mid-delivery", () => {
  it("loses nothing: the stalled delivery is swept, claimed again and delivered", async () => {
    const { fork } = await import("node:child_process");
    const path = await import("node:path");
    const { sweepStalledDeliveries } = await import("@/lib/notify/webhooks/redeliver-stalled");
    await worker.stop(); // only the child worker may take the job
    const { m, endpointId } = await merchantWithEndpoint("/crash");
    receiver.hangFirst("/crash", 1);
    const child = fork(path.resolve(import.meta.dirname, "../../scripts/start-worker.ts"), [], {
      execArgv: ["--import", "tsx"],
      env: { ...process.env, LOG_LEVEL: "error", WORKER_ROLES: "jobs" }, // jobs only: the chain tests own the watchers
      stdio: ["ignore", "ignore", "inherit", "ipc"],
    });
    try {
      await new Promise<void>((resolve) =>
        child.on("message", (msg: { type?: string }) => msg?.type === "ready" && resolve()),
      );
      await api("POST", "/v1/payments", { key: m.sandboxKey, body: { amount: "4.200000" } });
      await waitFor(() => receiver.at("/crash").length === 1, 20_000); // the child is now waiting on our receiver
      child.kill("SIGKILL");
      await new Promise((r) => child.once("exit", r));
    } finally {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
    }
    const [claimed] = await query<{ status: string; attempt_count: number }>(
      getDb(),
      "select status, attempt_count from webhook_deliveries where endpoint_id = $1",
      [endpointId],
    );
    expect(claimed).toEqual({ status: "pending", attempt_count: 1 }); // claimed, never recorded

    worker = await startWorker(getPool(), { concurrency: 10 });
    // The periodic sweep as it runs a minute after the kill (it takes what is 15 s past its lease): the dead
    // worker's lease has ended by then, so the delivery waits about a minute, not several.
    expect(await sweepStalledDeliveries(getDb(), new Date(Date.now() + 60_000 - 15_000))).toBeGreaterThanOrEqual(1);
    const hits = await waitFor(() => receiver.at("/crash").length >= 2 && receiver.at("/crash"));
    expect(hits[1]!.body).toBe(hits[0]!.body);
    await new Promise((r) => setTimeout(r, 300));
    const [after] = await query<{ status: string; attempt_count: number }>(
      getDb(),
      "select status, attempt_count from webhook_deliveries where endpoint_id = $1",
      [endpointId],
    );
    expect(after).toEqual({ status: "succeeded", attempt_count: 2 });
  }, 60_000);
});

describe("the real retry schedule", () => {
  it("schedules the first retry 5 s after the failed attempt, and sends it no earlier", async () => {
    // The process that records a failed attempt schedules its retry, on its own clock: another file's worker
    // (×0.02) must not take the first attempt. So the payment is created before its endpoint (no delivery,
    // no job), a pending delivery is added without a job, and this process makes and records attempt 1.
    process.env.WEBHOOK_RETRY_SCALE = "1";
    resetConfig();
    try {
      const m = await newMerchant();
      const payment = (await api("POST", "/v1/payments", { key: m.sandboxKey, body: { amount: "5.000000" } })).json;
      const { row } = await createWebhookEndpoint(
        getDb(),
        { merchantId: m.id, mode: "sandbox" },
        { url: receiver.url("/real-spacing") },
      );
      receiver.failFirst("/real-spacing", [500]);
      const [event] = await query<{ id: string }>(getDb(), "select id from events where object_id = $1", [payment.id]);
      await query(
        getDb(),
        `insert into webhook_deliveries (id, event_id, endpoint_id, merchant_id, mode, status)
         values ($1, $2, $3, $4, 'sandbox', 'pending')`,
        [newId("whd_"), event!.id, row.id, m.id],
      );
      const [first] = await deliverWebhooks(getDb(), { eventId: event!.id }, { waitMs: 5_000 });
      const recorded = Date.now();
      expect(first).toMatchObject({ outcome: "retry_scheduled" });
      // The schedule is exact: 5 s after the failed attempt was recorded (between its answer and now). When the
      // worker then runs it depends on the machine's load, so that is bounded from below only: never early.
      const [delivery] = await query<{ next_attempt_at: Date }>(
        getDb(),
        "select next_attempt_at from webhook_deliveries where endpoint_id = $1",
        [row.id],
      );
      const hits = await waitFor(
        () => receiver.at("/real-spacing").length >= 2 && receiver.at("/real-spacing"),
        20_000,
      );
      const scheduled = delivery!.next_attempt_at.getTime();
      expect(scheduled - hits[0]!.at).toBeGreaterThanOrEqual(5_000);
      expect(scheduled - recorded).toBeLessThanOrEqual(5_000);
      expect(hits[1]!.at).toBeGreaterThanOrEqual(scheduled);
    } finally {
      process.env.WEBHOOK_RETRY_SCALE = "0.02";
      resetConfig();
    }
  }, 30_000);
});

describe("isolation between endpoints", () => {
  it("a dead endpoint (never answers) does not delay deliveries to a healthy one", async () => {
    const { m } = await merchantWithEndpoint("/healthy");
    await createWebhookEndpoint(getDb(), { merchantId: m.id, mode: "sandbox" }, { url: receiver.url("/blackhole") });
    receiver.hangFirst("/blackhole", 1000);
    const started = Date.now();
    await Promise.all(
      Array.from({ length: 15 }, (_, i) =>
        api("POST", "/v1/payments", { key: m.sandboxKey, body: { amount: `${i + 1}.000000` }, server: i % 2 }),
      ),
    );
    await waitFor(() => receiver.at("/healthy").length >= 15, 9_000);
    // All 15 arrived well before the dead endpoint's first 10-second timeouts released any worker slot.
    expect(Date.now() - started).toBeLessThan(9_000);
    expect(receiver.at("/blackhole").length).toBeLessThanOrEqual(MAX_IN_FLIGHT_PER_ENDPOINT);
  }, 30_000);
});
