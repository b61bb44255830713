import { randomBytes } from "node:crypto";
import { generateMnemonic } from "@scure/bip39";
import { wordlist } from "@scure/bip39/wordlists/english.js";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { drizzle } from "drizzle-orm/node-postgres";
import { createChainAdapter } from "@/lib/chains/connect/chain-families";
import { chainConfig } from "@/lib/chains/chain-config";
import { checkNetworkIdentity, LIVE_NETWORK } from "@/lib/chains/connect/network-identity";
import { resetConfig } from "@/lib/platform/config/env";
import type { Db } from "@/lib/platform/db/client";
import { freePort } from "@/lib/platform/db/embedded";
import { migrateDatabase } from "@/lib/platform/db/migrate";
import { startOutboundLeaders } from "@/lib/money-out/outbound/start-outbound";
import { startChainWatchers } from "@/lib/money-in/watch/start-watchers";
import { type RunningAnvil, startAnvil } from "@/sandbox/evm/anvil";

// Live eth and bnb on nodes of the operator's: eth's endpoint serves Sepolia (chain id 11155111), then
// mainnet's chain id, then Sepolia again; bnb serves 56 throughout. The watcher and signer of eth lead
// only while it serves chain id 1; bnb's run on regardless.
const SEPOLIA = 11_155_111;
const CHECK_MS = 500;

let eth: RunningAnvil;
let bnb: RunningAnvil;
let admin: pg.Client;
let db: pg.Client;
let dbName: string;
const saved = { ...process.env };

beforeAll(async () => {
  [eth, bnb] = await Promise.all([
    startAnvil({ chainId: SEPOLIA, port: await freePort(), blockTime: 1 }),
    startAnvil({ chainId: 56, port: await freePort(), blockTime: 1 }),
  ]);
  // A database of its own: no sandbox chain is registered there, so only the two live chains lead.
  admin = new pg.Client({ connectionString: inject("databaseUrl") });
  await admin.connect();
  dbName = `usdt_network_${randomBytes(4).toString("hex")}`;
  await admin.query(`create database ${dbName}`);
  const url = new URL(inject("databaseUrl"));
  url.pathname = `/${dbName}`;
  await migrateDatabase(url.toString());
  db = new pg.Client({ connectionString: url.toString() });
  await db.connect();
  Object.assign(process.env, {
    DATABASE_URL: url.toString(),
    LIVE_SEED_MNEMONIC: generateMnemonic(wordlist, 256),
    ETH_RPC_URL: eth.rpcUrl,
    BNB_RPC_URL: bnb.rpcUrl,
    WATCH_CHAINS: "eth,bnb",
    LOG_LEVEL: "error",
  });
  resetConfig();
}, 60_000);

afterAll(async () => {
  process.env = saved;
  resetConfig();
  await db?.end();
  await admin?.query(`drop database if exists ${dbName} with (force)`);
  await admin?.end();
  await Promise.all([eth?.stop(), bnb?.stop()]);
});

const setChainId = (node: RunningAnvil, id: number) =>
  fetch(node.rpcUrl, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "anvil_setChainId", params: [id] }),
  });

async function cursor(chain: string) {
  const { rows } = await db.query(
    "select block_number::int as scanned, last_error from chain_cursors where mode = 'live' and chain = $1",
    [chain],
  );
  return rows[0] as { scanned: number; last_error: string | null } | undefined;
}

async function until<T>(what: string, probe: () => Promise<T | undefined | false>, ms = 15_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

describe("a live RPC URL serving another network", () => {
  it("stops that chain's watcher and signer, checked at start and while running, " +
    "naming it; the other chain runs", async () => {
    const refused: { chain: string; reason: string }[] = [];
    const url = process.env.DATABASE_URL!;
    const watchers = startChainWatchers(url, { networkCheckMs: CHECK_MS });
    const senders = startOutboundLeaders(url, {
      networkCheckMs: CHECK_MS,
      onNetworkRefused: (_db, config, reason) => refused.push({ chain: config.chain, reason }),
    });
    try {
      // At start: bnb is watched, eth never is, and its signer is refused with the reason.
      await until("bnb's live watcher", async () => (await cursor("bnb")) !== undefined);
      await until("eth's signer refused", async () => refused.find((r) => r.chain === "eth"));
      expect(await cursor("eth")).toBeUndefined();
      expect(refused.find((r) => r.chain === "eth")!.reason).toBe(
        `ETH_RPC_URL serves chain id ${SEPOLIA}, not eth's chain id 1: ` +
          `its watcher and signer are stopped until it does`,
      );
      expect(refused.filter((r) => r.chain === "bnb")).toEqual([]);

      // Serving chain id 1, eth is watched.
      await setChainId(eth, 1);
      const started = await until("eth's live watcher", async () => (await cursor("eth"))?.scanned);

      // Repointed while running: the watcher stops within a check, records why, and stays stopped.
      const refusedBefore = refused.filter((r) => r.chain === "eth").length;
      await setChainId(eth, SEPOLIA);
      const stopped = await until("eth's recorded error", async () => {
        const row = await cursor("eth");
        return row?.last_error?.startsWith("ETH_RPC_URL serves chain id 11155111") && row;
      });
      expect(stopped.scanned).toBeGreaterThanOrEqual(started);
      await until(
        "eth's signer refused again",
        async () => refused.filter((r) => r.chain === "eth").length > refusedBefore,
      );
      // A block a second on both: eth's scans stay where they stopped, bnb's move on.
      const ethStopped = (await cursor("eth"))!.scanned;
      const bnbBefore = (await cursor("bnb"))!.scanned;
      await new Promise((r) => setTimeout(r, 4_000));
      expect((await cursor("eth"))!.scanned).toBe(ethStopped);
      expect((await cursor("bnb"))!.scanned).toBeGreaterThan(bnbBefore + 1);
    } finally {
      await Promise.all([watchers.stop(), senders.stop()]);
    }
  }, 60_000);

  it(
    "is found on Tron by its chain id and on Solana by its " + "genesis hash (the sandbox's are not mainnet's)",
    async () => {
      const pool = new pg.Pool({ connectionString: inject("databaseUrl") });
      try {
        const suite = drizzle(pool) as Db;
        for (const [chain, kind] of [
          ["tron", "chain id"],
          ["solana", "genesis hash"],
        ] as const) {
          const sandbox = (await chainConfig(suite, "sandbox", chain, { fresh: true }))!;
          const served = await createChainAdapter(sandbox).network();
          expect(served).not.toBe(LIVE_NETWORK[chain].id);
          // The same endpoint configured as a live chain's is refused, naming what it serves.
          expect(await checkNetworkIdentity({ ...sandbox, mode: "live" })).toEqual({
            ok: false,
            reason:
              `${chain.toUpperCase()}_RPC_URL serves ${kind} ${served}, ` +
              `not ${chain}'s ${LIVE_NETWORK[chain].name}: its watcher and signer are stopped until it does`,
          });
          expect(await checkNetworkIdentity(sandbox)).toEqual({ ok: true });
        }
        const unreachable = await checkNetworkIdentity({
          ...(await chainConfig(suite, "sandbox", "solana", { fresh: true }))!,
          mode: "live",
          rpcUrl: "http://127.0.0.1:9/key-in-path",
        });
        expect(unreachable.ok).toBeNull();
        expect(JSON.stringify(unreachable)).not.toContain("key-in-path");
      } finally {
        await pool.end();
      }
    },
  );
});
