import { execFileSync, execSync, spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { describe, expect, it } from "vitest";
import { freePort } from "@/lib/platform/db/embedded";
import { sessionCookie, signInOverHttp } from "../helpers/dashboard-http";

const root = path.resolve(import.meta.dirname, "../..");

interface Started {
  child: ChildProcess;
  output: () => string;
}

/** `npm start` as a person runs it, in its own process group so we can see everything it spawned. */
async function npmStart(dataDir: string, port: number): Promise<Started> {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DATA_DIR: dataDir,
    PORT: String(port),
    PUBLIC_BASE_URL: `http://127.0.0.1:${port}`,
    LOG_LEVEL: "warn",
    SANDBOX_BLOCK_TIME: "0.5",
  };
  delete env.DATABASE_URL;
  // Every process from source through tsx, as an operator's npm start runs them (the other start tests may start
  // npm start's children from npm test's bundles: scripts/lib/entry-bundles.ts).
  delete env.ENTRY_BUNDLES;
  const child = spawn("npm", ["start"], { cwd: root, env, detached: true, stdio: ["ignore", "pipe", "pipe"] });
  let out = "";
  child.stdout!.on("data", (d) => (out += d));
  child.stderr!.on("data", (d) => (out += d));
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`npm start did not come up in 90 s:\n${out}`)), 90_000);
    const check = setInterval(() => {
      if (out.includes("Press Ctrl-C to stop.")) {
        clearInterval(check);
        clearTimeout(timer);
        resolve();
      }
    }, 100);
    child.once("exit", (code) => {
      clearInterval(check);
      clearTimeout(timer);
      reject(new Error(`npm start exited early (${code}):\n${out}`));
    });
  });
  return { child, output: () => out };
}

async function stopAndCheckNothingLeft(started: Started, dataDir: string) {
  const pgid = started.child.pid!;
  const exited = new Promise<number | null>((resolve) => started.child.once("exit", (code) => resolve(code)));
  started.child.kill("SIGTERM");
  // npm forwards the signal to `npm start`'s process and reports it as 128 + 15.
  expect([0, 143]).toContain(await exited);
  // npm may exit before `npm start` has stopped its children: give them the supervisor's stop timeout (10 s, after
  // which it SIGKILLs a child's whole tree) and a margin, then nothing of ours may remain.
  let leftovers = "";
  for (let i = 0; i < 100; i++) {
    leftovers = execSync(
      `ps -eo pid,pgid,args | awk '$2 == ${pgid} || index($0, "${dataDir}") { print }' | grep -v awk || true`,
    )
      .toString()
      .trim();
    if (!leftovers) break;
    await new Promise((r) => setTimeout(r, 200));
  }
  expect(leftovers).toBe("");
}

describe("one-command start (npm start, embedded database)", () => {
  it("starts database, sandbox chains, web and worker, " +
    "prints a working sandbox key once, and stops cleanly", async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "usdt-start-"));
    let firstChains: string[] = [];
    let emulatedFirst: [string, string][] = [];
    let paidBefore: Record<string, string> = {};
    const started: number[] = [];
    try {
      const port = await freePort();
      const first = await npmStart(dataDir, port);
      started.push(first.child.pid!);
      const key = /Sandbox API key[^:]*: (mnt_test_sk_[0-9A-Za-z]{43})/.exec(first.output())?.[1];
      expect(key, first.output()).toBeDefined();
      expect(first.output()).toContain(`Web:       http://127.0.0.1:${port}`);
      // The demo merchant's dashboard owner, printed once: that password signs in.
      const dashboard = /Sign in: +(demo@example\.com) \/ ([0-9A-Za-z]{20}) +\(password shown only this once\)/.exec(
        first.output(),
      );
      expect(dashboard, first.output()).not.toBeNull();
      const signedIn = await signInOverHttp(`http://127.0.0.1:${port}`, {
        email: dashboard![1]!,
        password: dashboard![2]!,
      });
      expect(signedIn.status).toBe(200);
      expect(sessionCookie(signedIn)).toMatch(/^next-auth\.session-token=/);
      const home = await fetch(`http://127.0.0.1:${port}/dashboard`, { headers: { cookie: sessionCookie(signedIn)! } });
      expect(home.status).toBe(200);
      expect(await home.text()).toContain("Demo merchant");

      const res = await fetch(`http://127.0.0.1:${port}/v1/payment-links`, {
        headers: { authorization: `Bearer ${key}` },
      });
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ object: "list", data: [] });

      // The worker is up: graphile-worker registered our periodic jobs.
      const state = JSON.parse(fs.readFileSync(path.join(dataDir, "postgres.json"), "utf8"));
      const client = new pg.Client({
        connectionString:
          `postgres://postgres:${encodeURIComponent(state.password)}` + `@127.0.0.1:${state.port}/usdt_payments`,
      });
      await client.connect();
      let crons: string[] = [];
      for (let i = 0; i < 50 && crons.length === 0; i++) {
        crons = (
          await client.query("select identifier from graphile_worker._private_known_crontabs order by 1")
        ).rows.map((r) => r.identifier);
        if (crons.length === 0) await new Promise((r) => setTimeout(r, 200));
      }
      await client.end();
      expect(crons).toEqual([
        "expire_idempotency_keys",
        "expire_overdue_payments",
        "plan_sweeps",
        "prune_expired_records",
        "reconcile_custody",
        "redeliver_stalled_webhooks",
        "refill_deposit_address_pool",
      ]);

      // The sandbox chains are up: one anvil per EVM chain with its USDT deployed.
      const chainLines = [
        ...first
          .output()
          .matchAll(
            new RegExp(
              String.raw`Sandbox: +(eth|bnb|polygon) +(http://127\.0\.0\.1:\d+) +` +
                String.raw`chain id (\d+), USDT (0x[0-9a-fA-F]{40}) \((\d+) decimals\)`,
              "g",
            ),
          ),
      ];
      expect(chainLines.map((l) => [l[1], l[3], l[5]])).toEqual([
        ["eth", "900001", "6"],
        ["bnb", "900056", "18"],
        ["polygon", "900137", "6"],
      ]);
      for (const [, , rpcUrl, chainId, token] of chainLines) {
        const rpc = async (method: string, params: unknown[]) =>
          (
            (await (
              await fetch(rpcUrl!, {
                method: "POST",
                headers: { "content-type": "application/json" },
                body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
              })
            ).json()) as { result: string }
          ).result;
        expect(Number(await rpc("eth_chainId", []))).toBe(Number(chainId));
        expect((await rpc("eth_getCode", [token, "latest"])).length).toBeGreaterThan(100);
      }
      firstChains = chainLines.map((l) => l[4]!);

      // The whole payment path runs under the one command: the web registers the payment, the sandbox
      // helper pays it on the local chain, the worker's watcher confirms it and credits the balance.
      const call = async (method: string, path: string, body?: unknown) =>
        (
          await fetch(`http://127.0.0.1:${port}${path}`, {
            method,
            headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
            body: body ? JSON.stringify(body) : undefined,
          })
        ).json();
      const chainsApi = await call("GET", "/v1/sandbox/chains");
      expect(chainsApi.data.map((c: { chain: string }) => c.chain).sort()).toEqual([
        "bnb",
        "eth",
        "polygon",
        "solana",
        "tron",
      ]);
      const emulatedLines = [
        ...first
          .output()
          .matchAll(/Sandbox: +(tron|solana) +(http:\/\/127\.0\.0\.1:\d+) +emulated, USDT (\S+) \(6 decimals\)/g),
      ];
      expect(emulatedLines.map((l) => l[1]).sort()).toEqual(["solana", "tron"]);
      const paid: Record<string, string> = {};
      for (const chain of ["polygon", "tron", "solana"]) {
        const payment = await call("POST", "/v1/payments", { amount: "1.500000", chain });
        // Payable at once, right after npm start said it runs: the worker was ready only with addresses in its pools.
        expect(payment, chain).toMatchObject({
          status: "awaiting_payment",
          chain,
          deposit_address: expect.any(String),
        });
        paid[chain] = (await call("POST", `/v1/sandbox/payments/${payment.id}/simulate`, {})).tx_hash;
        expect(paid[chain], chain).toBeTruthy();
        let status = "";
        let mined = false;
        for (let i = 0; i < 60 && status !== "confirmed"; i++) {
          await new Promise((r) => setTimeout(r, 500)); // gently: the key's budget is 60 requests a minute
          status = (await call("GET", `/v1/payments/${payment.id}`)).status;
          // The emulated chains need 19 blocks / 32 slots: mine them rather than wait.
          if (!mined && chain !== "polygon" && (status === "pending" || status === "confirming")) {
            await call("POST", `/v1/sandbox/chains/${chain}/mine`, { blocks: 40 });
            mined = true;
          }
        }
        expect(status, chain).toBe("confirmed");
      }
      const balances = await call("GET", "/v1/balances");
      for (const chain of ["polygon", "tron", "solana"]) {
        expect(balances.data.find((b: { chain: string }) => b.chain === chain)).toMatchObject({
          available: "1.500000",
          reserved: "0.000000",
        });
      }
      emulatedFirst = emulatedLines.map((l) => [l[1]!, l[3]!]);
      paidBefore = paid;

      // A chain process that dies is restarted from its saved state.
      const ethUrl = chainLines[0]![2]!;
      const ethPort = new URL(ethUrl).port;
      await new Promise((r) => setTimeout(r, 1_500)); // let anvil dump its state (--state-interval 1)
      execFileSync("pkill", ["-KILL", "-f", "--", `--port ${ethPort} `]); // no shell: its own command line would match
      let code = "";
      for (let i = 0; i < 60 && code.length < 100; i++) {
        await new Promise((r) => setTimeout(r, 250));
        try {
          const res = await fetch(ethUrl, {
            method: "POST",
            headers: { "content-type": "application/json" },
            body: JSON.stringify({
              jsonrpc: "2.0",
              id: 1,
              method: "eth_getCode",
              params: [chainLines[0]![4], "latest"],
            }),
          });
          code = ((await res.json()) as { result: string }).result ?? "";
        } catch {
          /* restarting */
        }
      }
      expect(code.length).toBeGreaterThan(100);

      await stopAndCheckNothingLeft(first, dataDir);

      // Second start: same database, same merchant, and the secret is not printed again.
      const second = await npmStart(dataDir, port);
      started.push(second.child.pid!);
      expect(second.output()).not.toMatch(/mnt_test_sk_[0-9A-Za-z]{43}/);
      expect(second.output()).toMatch(/New key: {3}npm run --silent cli -- keys create --merchant mer_/);
      expect(second.output()).not.toContain("Sign in:");
      expect(second.output()).toMatch(/Dashboard: .*users create --merchant mer_/);
      const again = await fetch(`http://127.0.0.1:${port}/v1/payment-links`, {
        headers: { authorization: `Bearer ${key}` },
      });
      expect(again.status).toBe(200);
      // Chain state survived the restart: the same token contracts, and the emulated chains still know the
      // transactions made before it.
      expect([...second.output().matchAll(/USDT (0x[0-9a-fA-F]{40})/g)].map((m) => m[1])).toEqual(firstChains);
      const emulatedAgain = Object.fromEntries(
        [...second.output().matchAll(/Sandbox: +(tron|solana) +(\S+) +emulated, USDT (\S+)/g)].map((l) => [
          l[1],
          { rpc: l[2]!, token: l[3] },
        ]),
      );
      expect(emulatedAgain.tron!.token).toBe(Object.fromEntries(emulatedFirst).tron);
      expect(emulatedAgain.solana!.token).toBe(Object.fromEntries(emulatedFirst).solana);
      const tronTx = await (
        await fetch(`${emulatedAgain.tron!.rpc}/wallet/gettransactioninfobyid`, {
          method: "POST",
          body: JSON.stringify({ value: paidBefore.tron }),
        })
      ).json();
      expect(tronTx).toMatchObject({ id: paidBefore.tron, receipt: { result: "SUCCESS" } });
      const solanaTx = await (
        await fetch(emulatedAgain.solana!.rpc, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({
            jsonrpc: "2.0",
            id: 1,
            method: "getTransaction",
            params: [paidBefore.solana, { encoding: "json", maxSupportedTransactionVersion: 0 }],
          }),
        })
      ).json();
      expect(solanaTx.result.meta.err).toBeNull();
      const balancesAgain = await (
        await fetch(`http://127.0.0.1:${port}/v1/balances`, { headers: { authorization: `Bearer ${key}` } })
      ).json();
      expect(balancesAgain.data.find((b: { chain: string }) => b.chain === "tron")).toMatchObject({
        available: "1.500000",
      });
      await stopAndCheckNothingLeft(second, dataDir);
    } finally {
      // On failure, leave nothing running: the whole process group of each start.
      for (const pgid of started) {
        try {
          process.kill(-pgid, "SIGKILL");
        } catch {
          /* already gone */
        }
      }
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  }, 180_000);
});
