import http from "node:http";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, inject } from "vitest";
import { IN_PROGRESS_TTL_MINUTES } from "@/lib/platform/idempotency/idempotency-keys";
import { getDb, getPool } from "@/lib/platform/db/client";
import { query } from "@/lib/platform/db/query";
import { type SpawnedWebServer, spawnWebServer } from "@/scripts/lib/spawn-web";
import { setTimeout as sleep } from "node:timers/promises";
import { api, expectError, newMerchant, type TestMerchant } from "../helpers/api";
import { until } from "../helpers/started-service";

// Web servers of this file's own, with a small database pool, so that a few slow requests would exhaust it.
const root = path.resolve(import.meta.dirname, "../..");
const baseEnv = () => ({
  DATABASE_URL: inject("databaseUrl"),
  MASTER_KEY: inject("masterKey"),
  REDIS_KEY_PREFIX: inject("redisKeyPrefix"),
  WEBHOOKS_ALLOW_PRIVATE_URLS: "true",
  DATA_DIR: path.join(root, ".data", "test"),
  LOG_LEVEL: "error",
});

/**
 * A receiver that answers every webhook 200, after holding it this long; those to /gated only once the test
 * opens the gate (a test then waits for what happens, not for a guessed time).
 */
const HOLD_MS = 8_000;
let slowReceiver: http.Server;
let slowUrl: string;
const servers: SpawnedWebServer[] = [];
const slowHits = new Map<string, number>();
const gated: http.ServerResponse[] = [];
let gateOpen = false;
const openGate = () => {
  gateOpen = true;
  for (const res of gated.splice(0)) res.writeHead(200).end("ok");
};

beforeAll(async () => {
  slowReceiver = http.createServer((req, res) => {
    slowHits.set(req.url ?? "/", (slowHits.get(req.url ?? "/") ?? 0) + 1);
    req.resume();
    req.on("end", () => {
      if (req.url !== "/gated") setTimeout(() => res.writeHead(200).end("ok"), HOLD_MS);
      else if (gateOpen) res.writeHead(200).end("ok");
      else gated.push(res);
    });
  });
  await new Promise<void>((r) => slowReceiver.listen(0, "127.0.0.1", () => r()));
  slowUrl = `http://127.0.0.1:${(slowReceiver.address() as { port: number }).port}/slow`;
});
afterAll(async () => {
  openGate();
  await Promise.all(servers.map((s) => s.stop()));
  slowReceiver.closeAllConnections();
  await new Promise((r) => slowReceiver.close(r));
});

async function call(base: string, method: string, urlPath: string, key?: string, body?: unknown, headers = {}) {
  const started = performance.now();
  const res = await fetch(`${base}${urlPath}`, {
    method,
    headers: {
      ...(key ? { authorization: `Bearer ${key}` } : {}),
      ...(body !== undefined ? { "content-type": "application/json" } : {}),
      ...headers,
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  let json: any;
  try {
    json = JSON.parse(text);
  } catch {
    /* a page */
  }
  return { status: res.status, headers: res.headers, json, ms: performance.now() - started };
}

const newPayment = async (base: string, m: TestMerchant) =>
  (await call(base, "POST", "/v1/payments", m.sandboxKey, { amount: "2.000000", chain: "eth" })).json as {
    id: string;
  };

describe("network calls run outside database transactions", () => {
  it("a dozen replays to a slow receiver (more than the pool) " +
    "leave other merchants' API and checkout fast", async () => {
    // TRUST_PROXY: the checkout request below counts against a client IP of its own, not the other tests'.
    const web = await spawnWebServer(root, { ...baseEnv(), DATABASE_POOL_SIZE: "4", TRUST_PROXY: "true" });
    servers.push(web);
    // Two merchants (the replay limit is 10 a minute per key), six payments each, all replayed at once.
    const senders = [await newMerchant(), await newMerchant()];
    const payments: { m: TestMerchant; id: string }[] = [];
    // Endpoints registered after the payments: their events have no deliveries for a worker to send.
    const gatedUrl = slowUrl.replace("/slow", "/gated");
    for (const m of senders) {
      for (let i = 0; i < 6; i++) payments.push({ m, id: (await newPayment(web.url, m)).id });
      const endpoint = await call(web.url, "POST", "/v1/webhooks", m.sandboxKey, { url: gatedUrl });
      expect(endpoint.status).toBe(200);
    }
    const bystander = await newMerchant();
    const bystanderPayment = await newPayment(web.url, bystander);

    const replays = payments.map((p) => call(web.url, "POST", `/v1/payments/${p.id}/replay`, p.m.sandboxKey));
    // All twelve reach the receiver, which holds them: more than the pool's four connections, so none is held
    // while its replay waits (with connections held, four would arrive and the rest queue for the pool).
    await until("every replay waiting on the receiver", async () => slowHits.get("/gated") === 12, 30_000);
    const bystanderCalls = Promise.all([
      call(web.url, "GET", "/v1/payments", bystander.sandboxKey),
      call(web.url, "GET", `/checkout/${bystanderPayment.id}`, undefined, undefined, {
        "x-forwarded-for": "198.51.100.73",
      }),
    ]);
    // Answered while the gate is still closed: with connections held, they would wait for it forever.
    const answered = await Promise.race([bystanderCalls, sleep(20_000).then(() => null)]);
    expect(answered, "GET /v1/payments and the checkout page answered while every replay waits").not.toBeNull();
    const [list, checkout] = answered!;
    expect(list.status).toBe(200);
    expect(checkout.status).toBe(200);
    openGate();

    const replies = await Promise.all(replays);
    for (const reply of replies) {
      expect(reply.status).toBe(200);
      expect(reply.json.deliveries).toEqual([expect.objectContaining({ success: true, statusCode: 200 })]);
    }
  }, 90_000);

  it("when no connection is free in time the API answers the envelope; a cut-off write can be retried", async () => {
    const web = await spawnWebServer(root, {
      ...baseEnv(),
      DATABASE_POOL_SIZE: "1",
      DATABASE_ACQUIRE_TIMEOUT_MS: "1000",
      DATABASE_STATEMENT_TIMEOUT_MS: "3000",
    });
    servers.push(web);
    const m = await newMerchant();
    const other = await newMerchant();
    // Hold the lock an endpoint creation takes (create-webhook-endpoint.ts), so the server's one connection
    // waits inside that request's transaction.
    const lock = await getPool().connect();
    const lockName = `webhook_endpoints:${m.id}:sandbox`;
    try {
      await lock.query("select pg_advisory_lock(hashtextextended($1, 0))", [lockName]);
      const idempotency = { "idempotency-key": "cut-off-create" };
      const stuck = call(web.url, "POST", "/v1/webhooks", m.sandboxKey, { url: slowUrl }, idempotency);
      await new Promise((r) => setTimeout(r, 500));

      const starved = await call(web.url, "GET", "/v1/payments", other.sandboxKey);
      expect(starved.ms, "answered within the acquire timeout, not after the lock").toBeLessThan(2_500);
      expect(starved.status).toBe(500);
      expect(starved.json.error).toMatchObject({ type: "internal_server_error", status: 500, param: null });
      expect(starved.json.error.message).toMatch(/busy/);
      expect(starved.headers.get("retry-after")).toBe("1");
      expect(starved.headers.get("x-api-version")).toBe("1");

      const cut = await stuck; // its statement ran past the statement timeout
      expect(cut.status).toBe(500);
      expect(cut.json.error.type).toBe("internal_server_error");
    } finally {
      await lock.query("select pg_advisory_unlock(hashtextextended($1, 0))", [lockName]);
      lock.release();
    }
    expect((await call(web.url, "GET", "/v1/payments", other.sandboxKey)).status).toBe(200);
    // Nothing was stored for the failed attempt and its key is free: the retry creates the endpoint.
    const retried = await call(
      web.url,
      "POST",
      "/v1/webhooks",
      m.sandboxKey,
      { url: slowUrl },
      {
        "idempotency-key": "cut-off-create",
      },
    );
    expect(retried.status).toBe(200);
    expect(retried.headers.get("idempotent-replayed")).toBeNull();
    expect((await call(web.url, "GET", "/v1/webhooks", m.sandboxKey)).json.data).toHaveLength(1);
  }, 60_000);

  it("a retry with the key while the replay is sending gets 409 and sends nothing; " +
    "afterwards the stored answer", async () => {
    const m = await newMerchant();
    const hook = slowUrl.replace("/slow", "/slow-idempotent");
    const payment = (
      await api("POST", "/v1/payments", { key: m.sandboxKey, body: { amount: "1.500000", chain: "eth" } })
    ).json;
    // Registered after the payment, so only the replay sends its event (no delivery another worker could make).
    expect((await api("POST", "/v1/webhooks", { key: m.sandboxKey, body: { url: hook } })).status).toBe(200);
    const replay = () =>
      api("POST", `/v1/payments/${payment.id}/replay`, {
        key: m.sandboxKey,
        headers: { "idempotency-key": "replay-once" },
        server: 1,
      });
    const first = replay();
    await new Promise((r) => setTimeout(r, 1_000));
    const during = await replay();
    expect(expectError(during, "idempotency_conflict", 409, "Idempotency-Key").message).toMatch(
      /still being processed/,
    );
    const done = await first;
    expect(done.status).toBe(200);
    const after = await replay();
    expect(after.text).toBe(done.text);
    expect(after.headers.get("idempotent-replayed")).toBe("true");
    expect(slowHits.get("/slow-idempotent"), "sent once").toBe(1);
  }, 30_000);

  it(
    `a claim left in progress by a crashed request is taken over after ` +
      `${IN_PROGRESS_TTL_MINUTES} minutes, not before`,
    async () => {
      const m = await newMerchant();
      const body = { url: slowUrl };
      const claimLeft = (key: string, minutesAgo: number) =>
        query(
          getDb(),
          `insert into idempotency_keys (merchant_id, mode, key, request_hash, method, path, created_at)
         values ($1, 'sandbox', $2, 'x', 'POST', '/v1/webhooks', now() - make_interval(mins => $3))`,
          [m.id, key, minutesAgo],
        );
      await claimLeft("fresh-claim", 1);
      await claimLeft("stale-claim", IN_PROGRESS_TTL_MINUTES + 1);
      const create = (key: string) =>
        api("POST", "/v1/webhooks", { key: m.sandboxKey, body, headers: { "idempotency-key": key } });
      expectError(await create("fresh-claim"), "idempotency_conflict", 409, "Idempotency-Key");
      const takenOver = await create("stale-claim");
      expect(takenOver.status).toBe(200);
      expect(takenOver.headers.get("idempotent-replayed")).toBeNull();
      expect((await create("stale-claim")).headers.get("idempotent-replayed")).toBe("true");
    },
  );
});
