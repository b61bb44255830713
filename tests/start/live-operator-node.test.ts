import { spawn, type ChildProcess } from "node:child_process";
import { randomUUID } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { generateMnemonic } from "@scure/bip39";
import { wordlist } from "@scure/bip39/wordlists/english.js";
import pg from "pg";
import {
  type Address,
  createPublicClient,
  createWalletClient,
  defineChain,
  type Hex,
  http,
  parseEther,
  type PublicClient,
} from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { describe, expect, it } from "vitest";
import { environOf, npmStartChild } from "../helpers/npm-start-children";
import { freePort } from "@/lib/platform/db/embedded";
import { startAnvil, type RunningAnvil } from "@/sandbox/evm/anvil";
import { anvilAccount } from "@/sandbox/evm/anvil-accounts";
import { deploySandboxToken, TOKEN_ABI } from "@/sandbox/evm/sandbox-token";
import { runCli } from "../helpers/run-cli";
import { deploySanctionsOracle } from "../helpers/sanctions-oracle";

// Live mode against a node the operator runs: an anvil with Ethereum's chain id stands in for the operator's
// own Ethereum node, with a USDT-like token already deployed on it (mainnet USDT's shape: 6 decimals, a
// `transfer` that returns nothing). The service runs as production runs it (`npm start`: a web process
// holding only the xpubs, a worker holding the live seed), on its own embedded database, without sandbox chains:
// nothing on the live path may lean on a sandbox helper (faucet, gas top-ups of the roles, chain registry).

const root = path.resolve(import.meta.dirname, "../..");
const USDT = 1_000_000n; // the token's base units per USDT (6 decimals)
const CONFIRMATIONS = 3;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function waitFor<T>(
  what: string,
  fn: () => Promise<T | null | undefined | false>,
  timeoutMs: number,
  everyMs = 250,
) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await fn();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(everyMs);
  }
}

/** The operator's chain: its node, the token on it, and its funded development accounts. */
async function operatorChain(anvil: RunningAnvil) {
  const chain = defineChain({
    id: 1,
    name: "operator-node",
    nativeCurrency: { name: "Ether", symbol: "ETH", decimals: 18 },
    rpcUrls: { default: { http: [anvil.rpcUrl] } },
  });
  const client = createPublicClient({ chain, transport: http(anvil.rpcUrl) }) as PublicClient;
  const owner = anvilAccount();
  const payer = anvilAccount(1);
  const wallet = (account: typeof owner) => createWalletClient({ account, chain, transport: http(anvil.rpcUrl) });
  const mined = async (hash: Hex) => {
    const receipt = await client.waitForTransactionReceipt({ hash, pollingInterval: 100 });
    expect(receipt.status).toBe("success");
  };
  const token = await deploySandboxToken(anvil.rpcUrl, "no_return", 6);
  const abi = TOKEN_ABI.no_return;
  await mined(
    await wallet(owner).writeContract({
      address: token,
      abi,
      functionName: "mint",
      args: [payer.address, 1_000n * USDT],
    }),
  );
  // The network's sanctions oracle (Chainalysis' interface), which the operator points ETH_SANCTIONS_ORACLE at.
  const sanctions = await deploySanctionsOracle(client, wallet(owner));
  return {
    token,
    sanctions,
    balanceOf: (address: string) =>
      client.readContract({
        address: token,
        abi,
        functionName: "balanceOf",
        args: [address as Address],
      }) as Promise<bigint>,
    /** ETH from a development account, as an operator funds the service's signers. */
    fund: async (to: string, eth: string) =>
      mined(await wallet(owner).sendTransaction({ to: to as Address, value: parseEther(eth) })),
    /** A payer's plain ERC-20 transfer from their wallet. */
    pay: async (to: string, raw: bigint) =>
      mined(
        await wallet(payer).writeContract({
          address: token,
          abi,
          functionName: "transfer",
          args: [to as Address, raw],
        }),
      ),
    code: (address: string) => client.getCode({ address: address as Address }),
    /** Replaces the code at an address (anvil), as a node that lost or regained a contract would serve it. */
    setCode: (address: string, code: Hex) =>
      client.request({ method: "anvil_setCode" as "eth_chainId", params: [address, code] as never }),
  };
}

/** `npm start`, in its own process group; resolves once it says it is running. */
async function npmStart(env: NodeJS.ProcessEnv): Promise<{ child: ChildProcess; output: () => string }> {
  const began = Date.now();
  const child = spawn("npm", ["start"], { cwd: root, env, detached: true, stdio: ["ignore", "pipe", "pipe"] });
  let out = "";
  child.stdout!.on("data", (d) => (out += d));
  child.stderr!.on("data", (d) => (out += d));
  await waitFor(
    "npm start to come up",
    async () => {
      if (child.exitCode !== null) throw new Error(`npm start exited (${child.exitCode}):\n${out}`);
      return out.includes("Press Ctrl-C to stop.");
    },
    120_000,
  ).catch((err: Error) => {
    // What it said by then: which process had not reported ready (seen once in CI, tests/FLAKES.md).
    throw new Error(`${err.message}; its output:\n${out}`);
  });
  console.log(`live-operator-node: npm start came up in ${((Date.now() - began) / 1000).toFixed(1)} s`);
  return { child, output: () => out };
}

async function stop(child: ChildProcess | undefined) {
  if (!child?.pid) return;
  if (child.exitCode === null) {
    const exited = new Promise((r) => child.once("exit", r));
    child.kill("SIGTERM");
    await Promise.race([exited, sleep(15_000)]);
  }
  try {
    process.kill(-child.pid, "SIGKILL"); // whatever of its group did not stop in time
  } catch {
    /* all gone */
  }
}

describe("live mode on the operator's own Ethereum node", () => {
  it("a live payment and a live payout both reach confirmed through the production path", async () => {
    const mnemonic = generateMnemonic(wordlist, 256);
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "usdt-live-node-"));
    let anvil: RunningAnvil | undefined;
    let service: ChildProcess | undefined;
    let db: pg.Client | undefined;
    try {
      // The operator's node: Ethereum's chain id (live signs for chain 1), Prague (EIP-7702), 1 s blocks.
      anvil = await startAnvil({ chainId: 1, port: await freePort(), blockTime: 1 });
      const node = await operatorChain(anvil);
      // The CREATE2 deployer the batched sweeps deploy their contract through, as on Ethereum.
      expect((await node.code("0x4e59b44847b379578588920ca78fbf26c0b4956c"))?.length).toBeGreaterThan(2);

      // Its own database: the embedded one `npm start` runs in DATA_DIR (no jobs, leaders or locks shared).
      const port = await freePort();
      const env: NodeJS.ProcessEnv = {
        ...process.env,
        DATA_DIR: dataDir,
        PORT: String(port),
        PUBLIC_BASE_URL: `http://127.0.0.1:${port}`,
        LOG_LEVEL: "warn",
        SANDBOX_CHAINS: "off",
        LIVE_SEED_MNEMONIC: mnemonic,
        ETH_RPC_URL: anvil.rpcUrl,
        ETH_USDT_CONTRACT: node.token,
        ETH_CONFIRMATIONS: String(CONFIRMATIONS),
        ETH_SANCTIONS_ORACLE: node.sanctions.address,
      };
      for (const name of [
        "DATABASE_URL",
        "MASTER_KEY",
        "EMBEDDED_DATABASE",
        "LIVE_SEED_FILE",
        "LIVE_EVM_XPUB",
        "LIVE_TRON_XPUB",
        "WORKER_ROLES",
      ])
        delete env[name];
      for (const chain of ["BNB", "POLYGON", "TRON", "SOLANA"]) delete env[`${chain}_RPC_URL`];
      const started = await npmStart(env);
      service = started.child;
      // As production runs it: the web holds the xpubs, never the seed; the worker holds the seed.
      const web = environOf(npmStartChild(service.pid!, "start-web"));
      expect(Object.keys(web).filter((name) => name.startsWith("LIVE_SEED"))).toEqual([]);
      expect(web.LIVE_EVM_XPUB).toMatch(/^xpub/);
      expect(environOf(npmStartChild(service.pid!, "start-worker")).LIVE_SEED_MNEMONIC).toBe(mnemonic);

      const state = JSON.parse(fs.readFileSync(path.join(dataDir, "postgres.json"), "utf8"));
      const password = encodeURIComponent(state.password);
      const databaseUrl = `postgres://postgres:${password}@127.0.0.1:${state.port}/usdt_payments`;
      db = new pg.Client({ connectionString: databaseUrl });
      await db.connect();
      const one = async <T extends pg.QueryResultRow>(sql: string, params: unknown[]) =>
        (await db!.query<T>(sql, params)).rows[0];

      // The operator funds the live treasury and sweeper with ETH (docs/CUSTODY.md), addresses from the CLI.
      const cliEnv = { ...env, DATABASE_URL: databaseUrl, EMBEDDED_DATABASE: "1" };
      const cli = async (args: string[]) => {
        const run = await runCli([...args, "--json"], cliEnv);
        expect(run.code, `${args.join(" ")}: ${run.stdout}${run.stderr}`).toBe(0);
        return JSON.parse(run.stdout);
      };
      const [treasuryShown, merchant] = await Promise.all([
        cli(["treasury", "show", "--mode", "live"]),
        cli(["merchants", "create", "--name", "Live shop", "--email", "ops@live-shop.test"]),
      ]);
      const roles = treasuryShown.chains.find((c: { chain: string }) => c.chain === "eth").roles as {
        role: string;
        address: string;
        native: string;
      }[];
      const treasury = roles.find((r) => r.role === "treasury")!;
      const sweeper = roles.find((r) => r.role === "sweeper")!;
      expect([treasury.native, sweeper.native]).toEqual(["0", "0"]);
      await node.fund(treasury.address, "1");
      await node.fund(sweeper.address, "1");
      const key = merchant.keys.find((k: { mode: string }) => k.mode === "live").secret as string;
      expect(key).toMatch(/^mnt_live_sk_/);

      const call = async (method: string, url: string, body?: unknown) => {
        for (;;) {
          const res = await fetch(`http://127.0.0.1:${port}${url}`, {
            method,
            headers: {
              authorization: `Bearer ${key}`,
              "content-type": "application/json",
              ...(method === "POST" ? { "idempotency-key": randomUUID() } : {}),
            },
            body: body ? JSON.stringify(body) : undefined,
          });
          if (res.status === 429) {
            await sleep(Number(res.headers.get("retry-after") ?? 1) * 1000);
            continue;
          }
          return { status: res.status, json: await res.json() };
        }
      };
      const ethBalance = async () =>
        (await call("GET", "/v1/balances")).json.data.find((b: { chain: string }) => b.chain === "eth");

      // The live watcher starts at the node's head: pay only once it is watching.
      await waitFor(
        "the live eth watcher",
        async () => one("select 1 from chain_cursors where mode = 'live' and chain = 'eth'", []),
        30_000,
      );

      // A live payment, paid with a plain ERC-20 transfer from the payer's wallet.
      const payment = await call("POST", "/v1/payments", { amount: "25.000000", chain: "eth" });
      expect(payment.status, JSON.stringify(payment.json)).toBe(200);
      expect(payment.json).toMatchObject({ status: "awaiting_payment", chain: "eth" });
      await node.pay(payment.json.deposit_address, 25n * USDT);
      const paid = await waitFor(
        "the payment to be confirmed",
        async () => {
          const now = (await call("GET", `/v1/payments/${payment.json.id}`)).json;
          return now.status === "confirmed" ? now : null;
        },
        60_000,
        1_000, // gently: the key's default budget is 60 requests a minute
      );
      expect(paid).toMatchObject({ amount: "25.000000", amount_received: "25.000000" });
      expect(await ethBalance()).toMatchObject({ available: "25.000000", reserved: "0.000000" });

      // A live payout of part of it to a fresh address. The treasury holds nothing yet: the payout waits for
      // liquidity, which sweeps the deposit address (batched EIP-7702, deploying the sweeper contract first).
      const recipient = privateKeyToAccount(generatePrivateKey()).address;
      const payout = await call("POST", "/v1/payouts", { chain: "eth", to_address: recipient, amount: "10.000000" });
      expect(payout.status, JSON.stringify(payout.json)).toBe(200);
      expect(payout.json).toMatchObject({ status: "pending", tx_hash: null });
      expect(await ethBalance()).toMatchObject({ available: "15.000000" });
      // Polled in the database (the payout endpoints allow 10 calls a minute), then read through the API.
      await waitFor(
        "the payout to be confirmed",
        async () => {
          const row = await one<{ status: string }>("select status from payouts where id = $1", [payout.json.id]);
          if (row && ["failed", "blocked", "review_required"].includes(row.status))
            throw new Error(`the payout ended ${row.status}`);
          return row?.status === "confirmed";
        },
        120_000,
      );
      const done = (await call("GET", `/v1/payouts/${payout.json.id}`)).json;
      expect(done).toMatchObject({ status: "confirmed", amount: "10.000000", to_address: recipient });
      expect(done.confirmations).toBeGreaterThanOrEqual(CONFIRMATIONS);
      expect(done.tx_hash).toMatch(/^0x[0-9a-f]{64}$/);
      expect(await node.balanceOf(recipient)).toBe(10n * USDT);
      expect(await ethBalance()).toMatchObject({ available: "15.000000", reserved: "0.000000" });
      // On chain: the deposit was swept into the treasury, which paid the payout from it.
      expect(await node.balanceOf(payment.json.deposit_address)).toBe(0n);
      expect(await node.balanceOf(treasury.address)).toBe(15n * USDT);
      // Through the live defaults (batched EIP-7702 sweeps and batched payouts): the sweeper contract's and the
      // PayoutBatcher's deployments, the treasury's approval of the latter, one sweep batch and the payout's batch
      // (of one: a plain transfer), and no gas top-up; no sandbox chain was ever registered.
      const sent = await db.query<{ purpose: string; status: string }>(
        "select purpose, status from outbound_transactions where mode = 'live' and chain = 'eth' order by purpose",
      );
      expect(sent.rows.map((r) => `${r.purpose} ${r.status}`)).toEqual([
        "approve confirmed",
        "deploy confirmed",
        "deploy confirmed",
        "payout_batch confirmed",
        "sweep_batch confirmed",
      ]);
      expect((await db.query("select 1 from sandbox_chains")).rowCount).toBe(0);

      // The operator's reconciliation agrees: books, chain and what merchants are owed.
      const reconciled = await runCli(["reconcile", "--mode", "live", "--json"], cliEnv);
      expect(reconciled.code, reconciled.stdout + reconciled.stderr).toBe(0);
      const report = JSON.parse(reconciled.stdout);
      expect(report.ok).toBe(true);
      expect(report.chains.find((c: { chain: string }) => c.chain === "eth").usdt).toMatchObject({
        on_chain: { treasury: "15.000000", deposit_addresses: "0.000000", total: "15.000000" },
        books: { treasury: "15.000000", in_flight: "0.000000", total: "15.000000" },
        owed: { available: "15.000000", payouts_in_flight: "0.000000", total: "15.000000" },
        unmatched: "0.000000",
        difference: "0.000000",
      });
      // A payout to an address the network's sanctions oracle lists is blocked, refunded and never signed.
      const sanctioned = privateKeyToAccount(generatePrivateKey()).address;
      await node.sanctions.list([sanctioned]);
      const refused = await call("POST", "/v1/payouts", { chain: "eth", to_address: sanctioned, amount: "1.000000" });
      expect(refused.status, JSON.stringify(refused.json)).toBe(200);
      const blocked = await waitFor(
        "the payout to be blocked",
        async () => {
          const row = await one<{ status: string; failure_code: string | null }>(
            "select status, failure_code from payouts where id = $1",
            [refused.json.id],
          );
          return row?.status === "blocked" ? row : null;
        },
        30_000,
      );
      expect(blocked.failure_code).toBe("sanctioned_destination");
      expect(await ethBalance()).toMatchObject({ available: "15.000000" });
      expect(
        (await db.query("select 1 from outbound_transactions where cause_id = $1", [refused.json.id])).rowCount,
      ).toBe(0);

      // A sanctions oracle that cannot be read (the node serves no code at its address) holds a payout: the
      // worker says so, and nothing is queued for signing. Readable again, the payout goes out.
      const oracleCode = (await node.code(node.sanctions.address))!;
      await node.setCode(node.sanctions.address, "0x");
      const unchecked = privateKeyToAccount(generatePrivateKey()).address;
      const waits = await call("POST", "/v1/payouts", { chain: "eth", to_address: unchecked, amount: "2.000000" });
      expect(waits.status, JSON.stringify(waits.json)).toBe(200);
      await waitFor(
        "the worker to hold the payout for the unreadable oracle",
        async () =>
          started
            .output()
            .split("\n")
            .some((line) => line.includes("the destination could not be screened") && line.includes(waits.json.id)),
        30_000,
      );
      expect(await one("select status, outbound_id from payouts where id = $1", [waits.json.id])).toEqual({
        status: "pending",
        outbound_id: null,
      });
      expect(
        (await db.query("select 1 from outbound_transactions where cause_id = $1", [waits.json.id])).rowCount,
      ).toBe(0);
      expect(await ethBalance()).toMatchObject({ available: "13.000000", in_flight: "2.000000" });
      await node.setCode(node.sanctions.address, oracleCode);
      await waitFor(
        "the held payout to be confirmed",
        async () => {
          const row = await one<{ status: string }>("select status from payouts where id = $1", [waits.json.id]);
          if (row && ["failed", "blocked", "review_required"].includes(row.status))
            throw new Error(`the payout ended ${row.status}`);
          return row?.status === "confirmed";
        },
        60_000,
      );
      expect(await node.balanceOf(unchecked)).toBe(2n * USDT);
      expect(started.output()).not.toContain(mnemonic.split(" ").slice(0, 3).join(" "));
    } finally {
      await db?.end().catch(() => undefined);
      await stop(service);
      await anvil?.stop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  }, 240_000);
});
