import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes, randomUUID } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { freePort, startEmbeddedDatabase } from "@/lib/db/embedded";
import { startReceiver } from "../helpers/webhook-receiver";

// A killed PostgreSQL must not stop money silently. Under `npm start` the embedded server's postmaster is
// SIGKILLed, twice, while payments are created and their webhooks delivered: the supervisor starts it again,
// /api/health says what is down meanwhile, and web and worker carry on without a manual step: no request
// retried with its Idempotency-Key makes a second payment, and every payment's webhook arrives.
const root = path.resolve(import.meta.dirname, "../..");
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function until<T>(what: string, fn: () => Promise<T | null | undefined | false>, timeoutMs: number) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await fn().catch(() => null);
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(200);
  }
}

interface Service {
  base: string;
  out: () => string;
  call: (method: string, url: string, body?: unknown, idempotencyKey?: string) => Promise<Response>;
  health: () => Promise<{
    status: number;
    body: { ok: boolean; database: string; processes: Record<string, { state: string }> };
  }>;
  /** Creates a payment as a client would through an outage: the same Idempotency-Key until it answers. */
  createPayment: (order: string) => Promise<string>;
  stop: () => Promise<void>;
}

/** `npm start` without sandbox chains (payments need none), with a sandbox key of its own. */
async function startService(dataDir: string, databaseUrl?: string): Promise<Service> {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DATA_DIR: dataDir,
    PORT: String(port),
    PUBLIC_BASE_URL: base,
    LOG_LEVEL: "warn",
    SANDBOX_CHAINS: "off",
    WEBHOOKS_ALLOW_PRIVATE_URLS: "true",
  };
  delete env.DATABASE_URL;
  delete env.MASTER_KEY;
  if (databaseUrl) Object.assign(env, { DATABASE_URL: databaseUrl, MASTER_KEY: randomBytes(32).toString("base64") });
  const child: ChildProcess = spawn("npm", ["start"], {
    cwd: root,
    env,
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  child.stdout!.on("data", (d) => (out += d));
  child.stderr!.on("data", (d) => (out += d));
  const stop = async () => {
    if (!child.pid || child.exitCode !== null) return;
    const exited = new Promise((r) => child.once("exit", r));
    child.kill("SIGTERM");
    await Promise.race([exited, sleep(20_000)]);
    try {
      process.kill(-child.pid, "SIGKILL");
    } catch {
      /* all gone */
    }
  };
  try {
    const state = await until(
      "npm start",
      async () => (child.exitCode !== null ? "exited" : out.includes("Press Ctrl-C to stop.")),
      120_000,
    );
    if (state === "exited") throw new Error("npm start exited");
  } catch (err) {
    await stop();
    throw new Error(`${(err as Error).message}:\n${out}`);
  }
  const key = /Sandbox API key \(shown only this once, store it now\): (mnt_test_sk_\w+)/.exec(out)?.[1];
  const call = (method: string, url: string, body?: unknown, idempotencyKey?: string) =>
    fetch(`${base}${url}`, {
      method,
      headers: {
        authorization: `Bearer ${key}`,
        "content-type": "application/json",
        ...(idempotencyKey ? { "idempotency-key": idempotencyKey } : {}),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
      // As a real client: an answer that does not come within 10 s is retried (same Idempotency-Key).
      signal: AbortSignal.timeout(10_000),
    });
  const health = async () => {
    const res = await fetch(`${base}/api/health`, { signal: AbortSignal.timeout(10_000) });
    return { status: res.status, body: await res.json() };
  };
  const createPayment = async (order: string) => {
    const idempotencyKey = randomUUID();
    const res = await until(
      `payment ${order}`,
      async () => {
        const r = await call("POST", "/v1/payments", { amount: "1.000000", metadata: { order } }, idempotencyKey);
        return r.status === 200 ? r : null;
      },
      120_000,
    );
    return ((await res.json()) as { id: string }).id;
  };
  return { base, out: () => out, call, health, createPayment, stop };
}

/** A payment's webhook delivered (the worker is alive and its jobs run). */
const hooked = (receiver: Awaited<ReturnType<typeof startReceiver>>, id: string) =>
  until(`the webhook of ${id}`, async () => receiver.at("/hook").some((r) => r.body.includes(id)), 120_000);

/** Every payment once: as many as were asked for, none doubled by a retried request. */
async function expectEachOnce(service: Service, ids: string[]) {
  const listed = (await (await service.call("GET", "/v1/payments?limit=100")).json()) as { data: { id: string }[] };
  expect(listed.data.map((p) => p.id).sort()).toEqual([...ids].sort());
  expect(new Set(ids).size).toBe(ids.length);
}

const killPostmaster = (clusterDir: string) =>
  process.kill(Number(fs.readFileSync(path.join(clusterDir, "postmaster.pid"), "utf8").split("\n")[0]), "SIGKILL");

type Health = Awaited<ReturnType<Service["health"]>>["body"];
/** Waits for /api/health to answer 503 with what `shows` looks for (and returns it). */
const healthShows = (service: Service, what: string, shows: (body: Health) => boolean) =>
  until(
    `health reporting ${what}`,
    async () => {
      const h = await service.health().catch(() => null);
      return h && h.status === 503 && shows(h.body) ? h : null;
    },
    30_000,
  );

describe("a database killed under npm start", () => {
  it("embedded: started again; web and worker ride it out; health names it meanwhile; nothing lost or doubled", async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "usdt-dbkill-"));
    const receiver = await startReceiver();
    const service = await startService(dataDir);
    try {
      expect((await service.call("POST", "/v1/webhooks", { url: receiver.url("/hook") }, randomUUID())).status).toBe(
        200,
      );
      expect(await service.health()).toMatchObject({
        status: 200,
        body: {
          ok: true,
          database: "up",
          processes: { database: { state: "up" }, web: { state: "up" }, worker: { state: "up" } },
        },
      });
      const ids = [await service.createPayment("before")];
      await hooked(receiver, ids[0]!);
      for (const round of [1, 2]) {
        killPostmaster(path.join(dataDir, "postgres"));
        const down = await healthShows(
          service,
          "the database restarting",
          (b) => b.processes.database?.state === "restarting",
        );
        expect(down.body.ok).toBe(false);
        // Clients keep trying meanwhile; then everything answers again, on its own.
        const during = service.createPayment(`during-${round}`);
        await until(`round ${round}: health ok again`, async () => (await service.health()).status === 200, 90_000);
        ids.push(await during);
        ids.push(await service.createPayment(`after-${round}`));
      }
      for (const id of ids) await hooked(receiver, id);
      await expectEachOnce(service, ids);
      expect(service.out()).toContain("[database] PostgreSQL stopped answering");
      expect(service.out()).not.toContain("giving up");
    } finally {
      await service.stop();
      await receiver.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  }, 300_000);

  it("external DATABASE_URL: web and worker ride out the server's restart; nothing lost or doubled", async () => {
    // The operator's own PostgreSQL (an embedded one started here, outside npm start): killed, down for a
    // while as a real restart or failover would be, then started again by the "operator".
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "usdt-extkill-"));
    fs.chmodSync(dataDir, 0o755); // PostgreSQL runs as its own user when started as root
    const dbDir = path.join(dataDir, "operator-db");
    let database = await startEmbeddedDatabase(dbDir);
    const receiver = await startReceiver();
    const service = await startService(path.join(dataDir, "service"), database.url);
    try {
      expect((await service.call("POST", "/v1/webhooks", { url: receiver.url("/hook") }, randomUUID())).status).toBe(
        200,
      );
      const ids = [await service.createPayment("before")];
      await hooked(receiver, ids[0]!);
      for (const round of [1, 2]) {
        killPostmaster(path.join(dbDir, "postgres"));
        const down = await healthShows(service, "the database down", (b) => b.database === "down");
        expect(down.body.ok).toBe(false);
        const during = service.createPayment(`during-${round}`);
        await sleep(15_000);
        database = await startEmbeddedDatabase(dbDir);
        await until(`round ${round}: health ok again`, async () => (await service.health()).status === 200, 60_000);
        ids.push(await during);
        ids.push(await service.createPayment(`after-${round}`));
      }
      for (const id of ids) await hooked(receiver, id);
      await expectEachOnce(service, ids);
    } finally {
      await service.stop();
      await database.stop();
      await receiver.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  }, 300_000);
});
