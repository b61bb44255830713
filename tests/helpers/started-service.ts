import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes, randomUUID } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { expect } from "vitest";
import { freePort } from "@/lib/platform/db/embedded";
import { runCli } from "./run-cli";
import type { startReceiver } from "./webhook-receiver";

// `npm start` as the restart tests drive it (tests/start/*-restart.test.ts): a service of its own, a client that
// retries with its Idempotency-Key through an outage, and the checks that nothing was lost or doubled.

const root = path.resolve(import.meta.dirname, "../..");
export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export async function until<T>(what: string, fn: () => Promise<T | null | undefined | false>, timeoutMs: number) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await fn().catch(() => null);
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(200);
  }
}

export interface Service {
  base: string;
  /** The demo merchant's sandbox key, as npm start printed it. */
  key: string;
  out: () => string;
  call: (method: string, url: string, body?: unknown, idempotencyKey?: string) => Promise<Response>;
  health: () => Promise<{
    status: number;
    body: { ok: boolean; database: string; processes: Record<string, { state: string }> };
  }>;
  /** Creates a resource as a client would through an outage: the same Idempotency-Key until it answers. */
  create: (url: string, body: unknown) => Promise<{ id: string }>;
  /** A payment (1 USDT, any chain) created as `create` does. */
  createPayment: (order: string) => Promise<string>;
  /** The process group `npm start` leads (its children: database, web, worker). */
  pgid: number;
  stop: () => Promise<void>;
}

/**
 * `npm start` with a sandbox key of its own, without sandbox chains (payments need none) unless `env` asks for
 * them (SANDBOX_CHAINS=on).
 */
export async function startService(
  dataDir: string,
  databaseUrl?: string,
  extraEnv: Record<string, string> = {},
): Promise<Service> {
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
    ...extraEnv,
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
  const create = async (url: string, body: unknown) => {
    const idempotencyKey = randomUUID();
    let last = "no answer yet";
    const res = await until(
      `POST ${url}`,
      async () => {
        const r = await call("POST", url, body, idempotencyKey).catch((err: Error) => {
          last = `${err.name}: ${err.message}`;
          throw err;
        });
        if (r.status === 200) return r;
        last = `${r.status} ${(await r.text()).slice(0, 300)}`;
        return null;
      },
      120_000,
    ).catch((err: Error) => {
      throw new Error(`${err.message} (its last answer: ${last})\n${out.split("\n").slice(-40).join("\n")}`);
    });
    return (await res.json()) as { id: string };
  };
  const createPayment = async (order: string) =>
    (await create("/v1/payments", { amount: "1.000000", metadata: { order } })).id;
  return { base, key: key ?? "", out: () => out, call, health, create, createPayment, stop, pgid: child.pid! };
}

/** A payment's webhook delivered (the worker is alive and its jobs run). */
export const hooked = (receiver: Awaited<ReturnType<typeof startReceiver>>, id: string) =>
  until(`the webhook of ${id}`, async () => receiver.at("/hook").some((r) => r.body.includes(id)), 120_000);

/** Every payment once: as many as were asked for, none doubled by a retried request. */
export async function expectEachOnce(service: Service, ids: string[]) {
  const listed = (await (await service.call("GET", "/v1/payments?limit=100")).json()) as { data: { id: string }[] };
  expect(listed.data.map((p) => p.id).sort()).toEqual([...ids].sort());
  expect(new Set(ids).size).toBe(ids.length);
}

export const killPostmaster = (clusterDir: string) =>
  process.kill(Number(fs.readFileSync(path.join(clusterDir, "postmaster.pid"), "utf8").split("\n")[0]), "SIGKILL");

type Health = Awaited<ReturnType<Service["health"]>>["body"];
/** Waits for /api/health to answer 503 with what `shows` looks for (and returns it). */
export const healthShows = (service: Service, what: string, shows: (body: Health) => boolean) =>
  until(
    `health reporting ${what}`,
    async () => {
      const h = await service.health().catch(() => null);
      return h && h.status === 503 && shows(h.body) ? h : null;
    },
    30_000,
  );

/** `npm run cli` on a started service's own embedded database (its DATA_DIR; no DATABASE_URL nor MASTER_KEY). */
export function cliOn(dataDir: string, args: string[]) {
  const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir };
  delete env.DATABASE_URL;
  delete env.MASTER_KEY;
  return runCli(args, env);
}

/** The started service's `ledger check`: consistent, nothing to report. */
export async function expectLedgerConsistent(dataDir: string) {
  const ledger = await cliOn(dataDir, ["ledger", "check", "--json"]);
  expect(ledger.code, ledger.stdout + ledger.stderr).toBe(0);
  expect(JSON.parse(ledger.stdout)).toEqual({ consistent: true, problems: [] });
}
