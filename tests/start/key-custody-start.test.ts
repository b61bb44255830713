import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { generateMnemonic, mnemonicToSeedSync } from "@scure/bip39";
import { wordlist } from "@scure/bip39/wordlists/english.js";
import pg from "pg";
import { describe, expect, it } from "vitest";
import { environOf, npmStartChild } from "../helpers/npm-start-children";
import { freePort } from "@/lib/platform/db/embedded";
import { accountXpub, deriveAddress } from "@/lib/chains/wallets/derive-address";
import { runCli } from "../helpers/run-cli";

const root = path.resolve(import.meta.dirname, "../..");
const NOWHERE = "http://127.0.0.1:9"; // live RPCs: enabled, never reached (no watchers run here)

describe("key custody under npm start (web and worker on one machine)", () => {
  it("the web process never has the live seed, yet hands out the seed's live addresses", async () => {
    const mnemonic = generateMnemonic(wordlist, 256);
    const seed = mnemonicToSeedSync(mnemonic);
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "usdt-custody-"));
    const port = await freePort();
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      DATA_DIR: dataDir,
      PORT: String(port),
      PUBLIC_BASE_URL: `http://127.0.0.1:${port}`,
      LOG_LEVEL: "warn",
      SANDBOX_CHAINS: "off",
      WORKER_ROLES: "jobs",
      LIVE_SEED_MNEMONIC: mnemonic,
      ETH_RPC_URL: NOWHERE,
      TRON_RPC_URL: NOWHERE,
      SOLANA_RPC_URL: NOWHERE,
    };
    delete env.DATABASE_URL;
    delete env.MASTER_KEY;
    let child: ChildProcess | undefined;
    try {
      child = spawn("npm", ["start"], { cwd: root, env, detached: true, stdio: ["ignore", "pipe", "pipe"] });
      let out = "";
      child.stdout!.on("data", (d) => (out += d));
      child.stderr!.on("data", (d) => (out += d));
      for (let i = 0; i < 900 && !out.includes("Press Ctrl-C to stop."); i++) {
        if (child.exitCode !== null) throw new Error(`npm start exited:\n${out}`);
        await new Promise((r) => setTimeout(r, 100));
      }
      expect(out).toContain("Press Ctrl-C to stop.");

      const web = environOf(npmStartChild(child.pid!, "start-web"));
      const worker = environOf(npmStartChild(child.pid!, "start-worker"));
      expect(worker.LIVE_SEED_MNEMONIC).toBe(mnemonic); // so reading environments does show it where it is
      expect(Object.keys(web).filter((name) => name.startsWith("LIVE_SEED"))).toEqual([]);
      expect(Object.values(web).some((value) => value.includes(mnemonic.split(" ").slice(0, 3).join(" ")))).toBe(false);
      expect(web.LIVE_EVM_XPUB).toBe(accountXpub(seed, "evm"));
      expect(web.LIVE_TRON_XPUB).toBe(accountXpub(seed, "tron"));
      expect(out).not.toContain(mnemonic.split(" ").slice(0, 3).join(" "));

      // Live chains configured: no demo merchant, no owner password, no secret in the log; the way to begin.
      expect(out).not.toMatch(/Sign in:|Owner:|mnt_(live|test)_sk_|Merchant: +mer_/);
      expect(out).toContain("users invite --merchant mer_… --email E --role owner");
      const state = JSON.parse(fs.readFileSync(path.join(dataDir, "postgres.json"), "utf8"));
      const databaseUrl =
        `postgres://postgres:${encodeURIComponent(state.password)}` + `@127.0.0.1:${state.port}/usdt_payments`;
      const cliEnv = { ...env, DATABASE_URL: databaseUrl, EMBEDDED_DATABASE: "1" };
      const db = new pg.Client({ connectionString: databaseUrl });
      await db.connect();
      const counts = await db.query(
        "select (select count(*)::int from users) as users, (select count(*)::int from merchants) as merchants",
      );
      await db.end();
      expect(counts.rows[0]).toEqual({ users: 0, merchants: 0 });

      // The operator's first merchant, then a live key, and payments through the web: its addresses are the seed's.
      const shop = await runCli(
        ["merchants", "create", "--name", "Shop", "--email", "ops@shop.test", "--json"],
        cliEnv,
      );
      expect(shop.code, shop.stderr).toBe(0);
      const merchant = JSON.parse(shop.stdout).merchant.id as string;
      const created = await runCli(["keys", "create", "--merchant", merchant, "--mode", "live", "--json"], cliEnv);
      expect(created.code, created.stderr).toBe(0);
      const key = JSON.parse(created.stdout).secret as string;
      const call = async (method: string, url: string, body?: unknown) =>
        (
          await fetch(`http://127.0.0.1:${port}${url}`, {
            method,
            headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
            body: body ? JSON.stringify(body) : undefined,
          })
        ).json();
      // Every address comes from the pools the worker fills from its start (the web derives none): a payment made
      // before its pool's first refill committed waits, then becomes payable. Each pool begins at index 0.
      const payable = async (chain: string) => {
        let payment = await call("POST", "/v1/payments", { amount: "5.000000", chain });
        expect(["intent_created", "awaiting_payment"]).toContain(payment.status);
        for (let i = 0; i < 30 && payment.status !== "awaiting_payment"; i++) {
          await new Promise((r) => setTimeout(r, 1_000));
          payment = await call("GET", `/v1/payments/${payment.id}`);
        }
        expect(payment.status).toBe("awaiting_payment");
        return payment.deposit_address as string;
      };
      expect(await payable("eth")).toBe(deriveAddress(seed, "evm", 0).address);
      expect(await payable("tron")).toBe(deriveAddress(seed, "tron", 0).address);
      expect(await payable("solana")).toBe(deriveAddress(seed, "solana", 0).address);
    } finally {
      if (child?.pid && child.exitCode === null) {
        const exited = new Promise((r) => child!.once("exit", r));
        child.kill("SIGTERM");
        await Promise.race([exited, new Promise((r) => setTimeout(r, 15_000))]);
        try {
          process.kill(-child.pid, "SIGKILL"); // whatever did not stop in time
        } catch {
          /* all gone */
        }
      }
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  }, 180_000);
});
