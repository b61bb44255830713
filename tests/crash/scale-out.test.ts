import { randomUUID } from "node:crypto";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { resetConfig } from "@/lib/platform/config/env";
import { getDb } from "@/lib/platform/db/client";
import { query } from "@/lib/platform/db/query";
import { createWebhookEndpoint } from "@/lib/notify/webhooks/create-webhook-endpoint";
import { spawnWebServer, type SpawnedWebServer } from "@/scripts/lib/spawn-web";
import type { SpawnedWorker } from "@/scripts/lib/spawn-worker";
import { ALL_SCOPES } from "@/lib/identity/api-keys/scopes";
import { newKey, newMerchant, type TestMerchant } from "../helpers/api";
import { balanceOf } from "../helpers/chains";
import { runCli } from "../helpers/run-cli";
import { startReceiver } from "../helpers/webhook-receiver";
import { evmChain, waitFor } from "../custody/outbound-helpers";
import { paidPayment } from "../custody/payment-helpers";
import { startWorker } from "./settled-payouts";

// The service past one machine, as docs/DEPLOYMENT.md lays it out: two web instances and two workers on one
// PostgreSQL (and Redis for the rate limits when the run has it). Clients create payments through either web
// instance, as a load balancer would spread them; some are paid on chain, payouts go out, every event is
// delivered to a webhook endpoint. Mid-load one web instance and one worker are SIGKILLed together. A client
// whose request fails retries it with the same Idempotency-Key on the other instance, as the SDK does.
const root = path.resolve(import.meta.dirname, "../..");
const LOAD_MS = 24_000;
const KILL_AT_MS = 8_000;
const PAYOUTS = 6;
const PAYOUT_EVERY_MS = (LOAD_MS - 4_000) / PAYOUTS;

let m: TestMerchant;
const webs: SpawnedWebServer[] = [];
const workers: SpawnedWorker[] = [];
let receiver: Awaited<ReturnType<typeof startReceiver>>;

// Connections are budgeted as docs/DEPLOYMENT.md says: this phase's stack (two web instances, the chains'
// helpers) already holds some of PostgreSQL's 100, so each process here keeps a small pool.
const SMALL_POOLS = { DATABASE_POOL_SIZE: "4", WORKER_CONCURRENCY: "4" };

const spawnWeb = () =>
  spawnWebServer(root, {
    DATABASE_URL: inject("databaseUrl"),
    MASTER_KEY: inject("masterKey"),
    REDIS_KEY_PREFIX: inject("redisKeyPrefix"),
    DATA_DIR: path.join(root, ".data", "test"),
    WEBHOOKS_ALLOW_PRIVATE_URLS: "true",
    LOG_LEVEL: "error",
    ...SMALL_POOLS,
  });

beforeAll(async () => {
  // The receiver is on loopback: allowed in sandbox when the operator says so (here and in the spawned workers).
  process.env.WEBHOOKS_ALLOW_PRIVATE_URLS = "true";
  resetConfig();
  const started = await Promise.all([
    spawnWeb(),
    spawnWeb(),
    startWorker(SMALL_POOLS),
    startWorker(SMALL_POOLS),
    newMerchant("Scale-out"),
  ]);
  webs.push(started[0], started[1]);
  workers.push(started[2], started[3]);
  m = started[4];
  receiver = await startReceiver();
  await createWebhookEndpoint(getDb(), { merchantId: m.id, mode: "sandbox" }, { url: receiver.url("/hook") });
  // The balance the payouts spend, credited before the load.
  await paidPayment(m, "eth", "20.000000", 120_000);
}, 240_000);

afterAll(async () => {
  await Promise.all([...webs.map((w) => w.stop()), ...workers.map((w) => w.stop())]);
  await receiver?.close();
});

interface Outcome {
  status: number;
  json: any;
}

/** A client behind a load balancer: a refused connection or a 5xx goes to the next instance, same key. */
function client() {
  const seen = { requests: 0, retries: 0, errors: [] as string[] };
  let next = 0;
  /** `pinned`: always the same instance (the one that survives), for what must not meet the kill. */
  async function send(method: string, p: string, key: string, body?: unknown, pinned = false): Promise<Outcome> {
    const idempotencyKey = randomUUID();
    const failures: string[] = [];
    for (let attempt = 0; attempt < 12; attempt++) {
      const url = pinned ? webs[1]!.url : webs[next++ % webs.length]!.url;
      seen.requests++;
      try {
        const res = await fetch(`${url}${p}`, {
          method,
          headers: {
            authorization: `Bearer ${key}`,
            "content-type": "application/json",
            ...(method === "POST" ? { "idempotency-key": idempotencyKey } : {}),
          },
          body: body === undefined ? undefined : JSON.stringify(body),
          signal: AbortSignal.timeout(15_000),
        });
        const text = await res.text();
        if (res.status < 500) return { status: res.status, json: JSON.parse(text) };
        failures.push(`${url}: ${res.status} ${text}`);
      } catch (err) {
        failures.push(`${url}: ${(err as Error).cause ?? err}`); // the instance is gone or the connection broke
      }
      seen.retries++;
      await new Promise((r) => setTimeout(r, 50 * (attempt + 1)));
    }
    seen.errors.push(`${method} ${p}: no instance answered: ${failures.join("; ")}`);
    return { status: 0, json: null };
  }
  return { send, seen };
}

describe("two web instances and two workers on one database", () => {
  it("keep creating, crediting, delivering and paying out through a SIGKILL of one of each: " +
    "nothing lost, nothing doubled", async () => {
    const api = client();
    const createKeys = await Promise.all(Array.from({ length: 24 }, () => newKey(m.id, "sandbox")));
    const payoutKey = (await newKey(m.id, "sandbox")).secret;
    // Paying through the sandbox needs sandbox:chains; a few keys share the calls (each key's budget is per minute).
    const chainKeys = await Promise.all(Array.from({ length: 3 }, () => newKey(m.id, "sandbox", ALL_SCOPES)));
    const eth = await evmChain("eth");
    const created: Outcome[] = [];
    const simulated: { paymentId: string; outcome: Outcome }[] = [];
    const payouts: { outcome: Outcome; to: string }[] = [];
    const inFlight: Promise<unknown>[] = [];
    const start = Date.now();
    let killed: { from: number; to: number } | undefined;
    let payoutsSent = 0;
    for (let i = 0; Date.now() - start < LOAD_MS; i++) {
      const key = createKeys[i % createKeys.length]!.secret;
      const chain = i % 3 === 2 ? "tron" : "eth";
      inFlight.push(
        api.send("POST", "/v1/payments", key, { amount: "1.000000", chain }).then(async (outcome) => {
          created.push(outcome);
          // One eth payment in twelve is paid on chain (the sandbox's simulate: a real transfer the watchers see),
          // through the instance that survives: a sandbox helper whose instance dies while it sends leaves its key
          // in progress for IN_PROGRESS_TTL_MINUTES (a retry then answers 409 rather than pay twice).
          if (chain === "eth" && i % 12 === 0 && outcome.status === 200) {
            const chainKey = chainKeys[(i / 12) % chainKeys.length]!.secret;
            const paid = await api.send("POST", `/v1/sandbox/payments/${outcome.json.id}/simulate`, chainKey, {}, true);
            simulated.push({ paymentId: outcome.json.id, outcome: paid });
          }
        }),
      );
      // The payouts at set times over the load (not every n-th request: a slower machine makes fewer requests),
      // through the instance that survives: creating one reads the chain between two transactions, so an instance
      // killed in between leaves its key in progress as the sandbox helper's above (a retry answers 409).
      if (payoutsSent < PAYOUTS && Date.now() - start >= 1_000 + payoutsSent * PAYOUT_EVERY_MS) {
        payoutsSent++;
        const to = await eth.freshAddress();
        const body = { chain: "eth", to_address: to, amount: "1.000000" };
        inFlight.push(
          api.send("POST", "/v1/payouts", payoutKey, body, true).then((outcome) => payouts.push({ outcome, to })),
        );
      }
      if (!killed && Date.now() - start >= KILL_AT_MS) {
        const from = Date.now();
        await Promise.all([webs[0]!.kill(), workers[0]!.kill()]);
        killed = { from, to: Date.now() };
      }
      await new Promise((r) => setTimeout(r, 60));
    }
    await Promise.all(inFlight);

    // No client saw an error: every request was answered, some only on their retry.
    expect(api.seen.errors).toEqual([]);
    expect(api.seen.retries).toBeGreaterThan(0);
    expect(created.filter((c) => c.status !== 200).map((c) => c.json)).toEqual([]);
    expect(simulated.filter((s) => s.outcome.status !== 200).map((s) => s.outcome.json)).toEqual([]);
    expect(payouts.filter((p) => p.outcome.status !== 200).map((p) => p.outcome.json)).toEqual([]);
    expect(payouts).toHaveLength(PAYOUTS);
    // One payment per request however often it was retried, each with its own address.
    const ids = created.map((c) => c.json.id as string);
    const [stored] = await query<{ n: number; addresses: number }>(
      getDb(),
      "select count(*)::int as n, count(distinct deposit_address)::int as addresses from payments where id = any($1)",
      [ids],
    );
    expect(new Set(ids).size).toBe(ids.length);
    expect(stored).toEqual({ n: ids.length, addresses: ids.length });
    const [all] = await query<{ n: number }>(
      getDb(),
      "select count(*)::int as n from payments where merchant_id = $1",
      [m.id],
    );
    expect(all!.n).toBe(ids.length + 1); // and the funding payment: no request made two

    // Every paid payment confirmed and credited once; every payout confirmed with one transfer on chain.
    const paidIds = simulated.map((s) => s.paymentId);
    await waitFor(
      `the ${paidIds.length} paid payments and ${PAYOUTS} payouts to be confirmed`,
      async () => {
        const [left] = await query<{ n: number }>(
          getDb(),
          `select (select count(*) from payments where id = any($1) and status <> 'confirmed')
                + (select count(*) from payouts where id = any($2) and status <> 'confirmed') as n`,
          [paidIds, payouts.map((p) => p.outcome.json.id)],
        );
        return Number(left!.n) === 0;
      },
      180_000,
    );
    for (const p of payouts) {
      expect(await eth.transfersTo(p.to)).toBe(1);
      expect(await eth.balanceOf(p.to)).toBe(1_000_000n);
    }
    const credited = 20_000_000n + BigInt(paidIds.length) * 1_000_000n - BigInt(PAYOUTS) * 1_000_000n;
    expect(await balanceOf(m.sandboxKey, "eth")).toEqual({
      available: `${credited / 1_000_000n}.${(credited % 1_000_000n).toString().padStart(6, "0")}`,
      reserved: "0.000000",
    });
    const ledger = await runCli(["ledger", "check", "--json"], process.env);
    expect(JSON.parse(ledger.stdout)).toEqual({ consistent: true, problems: [] });

    // Every event delivered: one delivery per event, succeeded, the receiver holding each; a second copy only
    // where the delivery's worker died between sending it and recording it (at least once, never more).
    await waitFor(
      "every event to be delivered",
      async () => {
        const [pending] = await query<{ n: number }>(
          getDb(),
          `select count(*)::int as n from events e left join webhook_deliveries d on d.event_id = e.id
            where e.merchant_id = $1 and (d.status is distinct from 'succeeded')`,
          [m.id],
        );
        return pending!.n === 0;
      },
      120_000,
    );
    const events = await query<{ id: string; attempts: number }>(
      getDb(),
      `select e.id, (select count(*)::int from webhook_attempts a where a.delivery_id = d.id) as attempts
         from events e join webhook_deliveries d on d.event_id = e.id where e.merchant_id = $1`,
      [m.id],
    );
    const copies = new Map<string, number[]>(); // event → when each copy arrived
    for (const r of receiver.at("/hook")) {
      const id = JSON.parse(r.body).id as string;
      copies.set(id, [...(copies.get(id) ?? []), r.at]);
    }
    expect(events.filter((e) => !copies.has(e.id))).toEqual([]);
    // A copy more than the recorded attempts is an attempt the killed worker sent and never recorded: its first
    // copy arrived before that worker was dead, the second after it was killed, and there are at most as many
    // as the worker ran jobs at once (WORKER_CONCURRENCY), one extra copy each.
    const doubled = events
      .filter((e) => copies.get(e.id)!.length > Math.max(1, e.attempts))
      .map((e) => ({ id: e.id, attempts: e.attempts, copies: copies.get(e.id)!.map((at) => at - killed!.from) }));
    // (The receiver runs in this process, whose loop may read a request sent before the kill a little after it.)
    const unexplained = doubled.filter(
      (d) => d.copies.length > 2 || d.copies[0]! > killed!.to - killed!.from + 5_000 || d.copies[1]! < 0,
    );
    expect(unexplained, `copies in ms from the kill, which took ${killed!.to - killed!.from} ms`).toEqual([]);
    expect(doubled.length).toBeLessThanOrEqual(Number(SMALL_POOLS.WORKER_CONCURRENCY));

    // No job lost: none left failed for good (out of attempts with an error recorded), none still held by the
    // dead worker. A cron job has one attempt (`?max=1`): out of it without an error, it is running, or it was
    // killed with its worker and its next tick resets it (graphile's add_job on the job key), so it is not lost.
    const failedJobs = await query<{ task: string; error: string | null }>(
      getDb(),
      `select task_identifier as task, left(last_error, 300) as error from graphile_worker.jobs
        where attempts >= max_attempts and last_error is not null`,
    );
    const [held] = await query<{ count: number }>(
      getDb(),
      `select count(*)::int as count from graphile_worker.jobs
        where locked_by is not null and locked_at < now() - interval '60 seconds'`,
    );
    const jobs = { failed: failedJobs.length, held: held!.count };
    expect(jobs, JSON.stringify(failedJobs)).toEqual({ failed: 0, held: 0 });
    console.log(
      `scale-out: ${ids.length} payments, ${paidIds.length} paid, ${PAYOUTS} payouts, ${events.length} events; ` +
        `${api.seen.requests} requests, ${api.seen.retries} retried after the SIGKILLs; ` +
        `${doubled.length} event received twice`,
    );
  }, 420_000);
});
