import { execFileSync, spawn } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEmbeddedDatabase } from "@/lib/platform/db/embedded";
import { listenHttp } from "@/lib/platform/listen-http";
import { constructEvent } from "../../sdk/src/webhooks";
import { runCli } from "../helpers/run-cli";
import { type Service, sleep, startService, until } from "../helpers/started-service";

// One `npm start` with its sandbox chains, as an operator and a developer meet it. Metrics as an operator scrapes
// them: the web's and the worker's listeners, the token, and a sandbox chain that stops answering, seen in
// GET /v1/chains, the worker's gauges and a checkout, then recovering. Then the README's quickstart: trigger and
// listen against it, the forwarded event verified with the SDK.

const root = path.resolve(import.meta.dirname, "../..");
const TOKEN = "metrics-token-for-the-test-0123456789abcdef";

/** The value of one sample (`name{labels} value`) in a scrape, or null when absent. */
function sample(text: string, name: string, labels: Record<string, string>): number | null {
  const wanted = Object.entries(labels).map(([k, v]) => `${k}="${v}"`);
  for (const line of text.split("\n")) {
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)\{([^}]*)\} (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const have = match[2]!.split(",");
    if (wanted.every((w) => have.includes(w))) return Number(match[3]);
  }
  return null;
}

/** The pid of the anvil serving `rpcUrl` (its --port), from the process table. */
function anvilPid(rpcUrl: string): number {
  const port = new URL(rpcUrl).port;
  const line = execFileSync("ps", ["-eo", "pid=,args="], { encoding: "utf8" })
    .split("\n")
    .find((l) => l.includes("anvil") && new RegExp(`--port ${port}(\\s|$)`).test(l));
  if (!line) throw new Error(`no anvil on port ${port}`);
  return Number(line.trim().split(/\s+/)[0]);
}

let dataDir: string;
let database: Awaited<ReturnType<typeof startEmbeddedDatabase>>;
let service: Service;
let db: pg.Client;
let webMetrics: string;
let workerMetrics: string;
beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "usdt-metrics-"));
  fs.chmodSync(dataDir, 0o755); // PostgreSQL runs as its own user when started as root
  database = await startEmbeddedDatabase(path.join(dataDir, "operator-db"));
  service = await startService(path.join(dataDir, "service"), database.url, {
    SANDBOX_CHAINS: "on",
    // Any free port each (a port chosen here could be taken by another test's process before npm start binds it).
    WEB_METRICS_PORT: "0",
    WORKER_METRICS_PORT: "0",
    METRICS_TOKEN: TOKEN,
  });
  webMetrics = /\[web\] metrics on (http:\S+)/.exec(service.out())![1]!;
  workerMetrics = /\[worker\] running .*; metrics on (http:\S+)/.exec(service.out())![1]!;
  db = new pg.Client({ connectionString: database.url });
  await db.connect();
}, 180_000);
afterAll(async () => {
  await db?.end().catch(() => undefined);
  await service?.stop();
  await database?.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

const scrape = async (url: string, token: string | null = TOKEN) => {
  const res = await fetch(url, {
    headers: token ? { authorization: `Bearer ${token}` } : {},
  });
  return { status: res.status, text: await res.text() };
};

describe("npm start with its sandbox chains, as an operator and a developer meet it", () => {
  it("web and worker serve /metrics on their own ports behind the token; a stopped chain shows in /v1/chains, the " +
    "gauges and its checkouts", async () => {
    let stopped: number | null = null;
    try {
      // Not on the public port, and not without the token.
      expect((await fetch(`${service.base}/metrics`)).status).toBe(404);
      expect((await scrape(webMetrics, null)).status).toBe(401);
      expect((await scrape(workerMetrics, "wrong")).status).toBe(401);

      const payment = await service.createPayment("metrics");
      // Each body read to its end: fetch resolves on the headers, and a request is counted when its answer ends.
      const read = async (res: Response) => {
        await res.text();
        return res.status;
      };
      expect(await read(await service.call("GET", `/v1/payments/${payment}`))).toBe(200);
      expect(await read(await service.call("GET", "/v1/no-such-thing"))).toBe(404);
      const web = await scrape(webMetrics);
      expect(web.status).toBe(200);
      const post = { route: "/v1/payments", method: "POST", status: "200" };
      expect(sample(web.text, "usdt_http_requests_total", post)).toBeGreaterThanOrEqual(1);
      // One series per route, not per id; a path no route serves is "unmatched" (scanners grow nothing).
      expect(sample(web.text, "usdt_http_requests_total", { route: "/v1/payments/[id]", status: "200" })).toBe(1);
      expect(web.text).not.toContain(payment);
      expect(sample(web.text, "usdt_http_requests_total", { route: "unmatched", status: "404" })).toBe(1);
      const created = { route: "/v1/payments", method: "POST", le: "+Inf" };
      expect(sample(web.text, "usdt_http_request_duration_seconds_bucket", created)).toBeGreaterThanOrEqual(1);
      expect(web.text).toContain("process_cpu_seconds_total");

      // The worker's view: every sandbox chain healthy, the queue, and a reconciliation run on demand.
      const chains = (await (await service.call("GET", "/v1/chains")).json()) as {
        data: { chain: string; healthy: boolean; status: string }[];
      };
      expect(chains.data.map((c) => c.chain).sort()).toEqual(["bnb", "eth", "polygon", "solana", "tron"]);
      const healthy = (text: string, chain: string) => sample(text, "usdt_chain_healthy", { mode: "sandbox", chain });
      await until(
        "bnb healthy in the worker's metrics",
        async () => healthy((await scrape(workerMetrics)).text, "bnb") === 1,
        60_000,
      );
      // Reconciled once the sandbox faucet has funded polygon's treasury and sweeper (seconds after the start; until
      // then the roles' missing gas is rightly an alert).
      await until(
        "polygon's roles funded",
        async () =>
          (
            await db.query(
              "select count(distinct role)::int as n from custody_fundings " +
                "where mode = 'sandbox' and chain = 'polygon'",
            )
          ).rows[0].n === 2,
        60_000,
      );
      await db.query("select graphile_worker.add_job('reconcile_custody', $1::json)", [
        JSON.stringify({ mode: "sandbox", chain: "polygon" }),
      ]);
      const reconciled = await until(
        "polygon reconciled",
        async () => {
          const { text } = await scrape(workerMetrics);
          return sample(text, "usdt_reconcile_last_run_timestamp_seconds", { chain: "polygon" }) !== null && text;
        },
        60_000,
      );
      expect(sample(reconciled, "usdt_reconcile_shortfall_usdt", { mode: "sandbox", chain: "polygon" })).toBe(0);
      const [findings] = (
        await db.query("select alerts from reconcile_results where mode = 'sandbox' and chain = 'polygon'")
      ).rows;
      expect(
        sample(reconciled, "usdt_reconcile_alerts", { mode: "sandbox", chain: "polygon" }),
        JSON.stringify(findings),
      ).toBe(0);
      expect(reconciled).toMatch(/^usdt_jobs_queued\{task="[a-z_]+",state="(ready|scheduled|running)"\} \d+$/m);

      // bnb's node stops answering (SIGSTOP: alive, silent, as a hung node is): the API, the gauge and the
      // checkout of a payment on bnb say so.
      const onBnb = (await service.create("/v1/payments", { amount: "1.000000", chain: "bnb" })).id;
      // The page as served (React marks where text joins with comments); every 3 s at most: pages have a per-IP budget.
      const checkoutSays = async (text: string) => {
        await sleep(3_000);
        const html = await (await fetch(`${service.base}/checkout/${onBnb}`)).text();
        return html.replaceAll("<!-- -->", "").includes(text);
      };
      const notice = "is slow to report payments right now";
      expect(await checkoutSays("Waiting for your payment")).toBe(true);
      expect(await checkoutSays(notice)).toBe(false);
      const bnbRpc = /Sandbox:\s+bnb\s+(http:\/\/127\.0\.0\.1:\d+)/.exec(service.out())![1]!;
      stopped = anvilPid(bnbRpc);
      process.kill(stopped, "SIGSTOP");
      const down = await until(
        "bnb unhealthy in /v1/chains",
        async () => {
          const list = (await (await service.call("GET", "/v1/chains")).json()) as typeof chains;
          const bnb = list.data.find((c) => c.chain === "bnb")!;
          return !bnb.healthy && bnb;
        },
        120_000,
      );
      expect(["erroring", "lagging"]).toContain(down.status);
      const during = (await scrape(workerMetrics)).text;
      expect(healthy(during, "bnb")).toBe(0);
      expect(healthy(during, "polygon")).toBe(1);
      await until("the checkout's notice", () => checkoutSays(`BNB Smart Chain ${notice}`), 30_000);

      process.kill(stopped, "SIGCONT");
      stopped = null;
      await until("bnb healthy again", async () => healthy((await scrape(workerMetrics)).text, "bnb") === 1, 120_000);
      await until("the notice gone", async () => !(await checkoutSays(notice)), 30_000);
    } finally {
      if (stopped) process.kill(stopped, "SIGCONT");
    }
  }, 360_000);

  it("the README's quickstart: listen forwards what trigger makes happen (every event it knows), verified by the SDK " +
    "with the printed secret", async () => {
    const received: { body: string; signature: string }[] = [];
    const receiver = http.createServer((req, res) => {
      let body = "";
      req.on("data", (c) => (body += c));
      req.on("end", () => {
        received.push({ body, signature: String(req.headers["service-signature"]) });
        res.writeHead(200).end();
      });
    });
    const receiverUrl = `${await listenHttp(receiver, "127.0.0.1", 0)}/webhooks`;
    const stateHome = path.join(dataDir, "cli-state");
    const env = { ...process.env, XDG_STATE_HOME: stateHome, USDT_API_KEY: service.key, USDT_BASE_URL: service.base };
    const listen = spawn(
      process.execPath,
      ["--import", "tsx", "scripts/cli.ts", "listen", "--forward-to", receiverUrl],
      {
        cwd: root,
        env,
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
    let printed = "";
    listen.stdout.on("data", (d) => (printed += d));
    try {
      const secret = await until(
        "listen ready",
        async () => /signing secret is (whsec_\S+)/.exec(printed)?.[1],
        30_000,
      );
      const trigger = await runCli(["trigger", "payment.confirmed"], env);
      expect(trigger.code, trigger.stderr).toBe(0);
      const paymentId = /\(payment (pay_\w+)\)/.exec(trigger.stdout)![1]!;
      const confirmed = await until(
        "payment.confirmed forwarded",
        async () =>
          received
            .map((r) => constructEvent(r.body, r.signature, secret))
            .find((e) => e.type === "payment.confirmed" && (e.data.object as { id: string }).id === paymentId),
        30_000,
      );
      expect(confirmed.data.object).toMatchObject({ id: paymentId, status: "confirmed" });
      expect(printed).toMatch(new RegExp(`payment\\.confirmed\\s+${paymentId}\\s+evt_\\w+\\s+--> \\[200\\] POST`));

      // Every other event trigger makes happen, at once (payouts need this service's own outbound leader):
      // each ends with its event, which listen forwards, verified.
      const others = [
        "payment.pending",
        "payment.confirming",
        "payment.expired",
        "payout.confirmed",
        "payout.failed",
        "refund.succeeded",
        "refund.failed",
      ];
      // The payout triggers one after the other: they poll GET /v1/payouts, whose window is 10 requests a minute.
      const triggerJson = (event: string) => runCli(["trigger", event, "--json"], env);
      // (The refund triggers that need no worker's transfer are proved in tests/cli/trigger.test.ts.)
      const [pending, confirming, expired, payouts, refunds] = await Promise.all([
        triggerJson("payment.pending"),
        triggerJson("payment.confirming"),
        triggerJson("payment.expired"),
        (async () => [await triggerJson("payout.confirmed"), await triggerJson("payout.failed")])(),
        (async () => [await triggerJson("refund.succeeded"), await triggerJson("refund.failed")])(),
      ]);
      const runs = [pending, confirming, expired, ...payouts, ...refunds];
      for (const [i, run] of runs.entries()) {
        expect(run.code, `${others[i]}: ${run.stdout}${run.stderr}`).toBe(0);
        const { event } = JSON.parse(run.stdout.trimEnd().split("\n").at(-1)!) as {
          event: { id: string; type: string };
        };
        expect(event.type).toBe(others[i]);
        const forwarded = await until(
          `${event.type} forwarded`,
          async () => received.map((r) => constructEvent(r.body, r.signature, secret)).find((e) => e.id === event.id),
          30_000,
        );
        expect(forwarded.type).toBe(others[i]);
      }
      // The payouts by the state they ended in, as the worker's metrics count them.
      const { text } = await scrape(workerMetrics);
      const ended = (status: string) =>
        sample(text, "usdt_payouts_finished_24h", { mode: "sandbox", chain: "polygon", status });
      expect([ended("confirmed"), ended("failed")]).toEqual([1, 1]);
      const refunded = (status: string) =>
        sample(text, "usdt_refunds_finished_24h", { mode: "sandbox", chain: "polygon", status });
      expect([refunded("succeeded"), refunded("failed")]).toEqual([1, 1]);
    } finally {
      listen.kill("SIGTERM");
      receiver.close();
    }
  }, 240_000);
});
