import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import type { BlockRef, ChainAdapter } from "@/lib/chains/chain-adapter";
import type { ChainConfig } from "@/lib/chains/chain-config";
import { listChainStatus } from "@/lib/money-in/watch/chain-status";
import { loadChainHealth } from "@/lib/money-in/watch/load-chain-health";
import { loadDailyVolume, totalVolume } from "@/lib/money-in/payments/daily-volume";
import { getDb } from "@/lib/platform/db/client";
import { query } from "@/lib/platform/db/query";
import { recordHead } from "@/lib/money-in/watch/chain-health";
import type { ScanTarget } from "@/lib/money-in/watch/scan-chain";
import { watchChain } from "@/lib/money-in/watch/watch-chain";
import { newMerchant } from "../helpers/api";

async function waitFor<T>(what: string, fn: () => Promise<T | null | undefined>, timeoutMs = 10_000): Promise<T> {
  for (const deadline = Date.now() + timeoutMs; Date.now() < deadline; await new Promise((r) => setTimeout(r, 25))) {
    const value = await fn();
    if (value) return value;
  }
  throw new Error(`timed out waiting for ${what}`);
}

const NOW = new Date("2026-06-30T15:00:00.000Z");

async function payment(
  merchantId: string,
  p: { units: bigint; chain: string; confirmedAt?: string; status?: string; mode?: string },
) {
  const status = p.status ?? "confirmed";
  await query(
    getDb(),
    `insert into payments
       (id, merchant_id, mode, status, chain, amount_units, deposit_address, created_at, expires_at, confirmed_at)
     values ($1, $2, $3, $4, $5, $6, $7, $8, $8::timestamptz + interval '1 hour', $9)`,
    [
      `pay_${randomBytes(12).toString("hex")}`,
      merchantId,
      p.mode ?? "sandbox",
      status,
      p.chain,
      p.units.toString(),
      `0x${randomBytes(20).toString("hex")}`,
      p.confirmedAt ?? NOW.toISOString(),
      status === "confirmed" ? p.confirmedAt : null,
    ],
  );
}

describe("confirmed volume", () => {
  it(
    "sums exact amounts per UTC day over 30 days, " +
      "every chain (18-decimal BNB included), confirmed only, this mode",
    async () => {
      const m = await newMerchant();
      // Beyond 2^53 base units (9 007 199 254.740993 USDT): a float sum would be off by a unit.
      const big = 9_007_199_254_740_993n;
      await payment(m.id, { units: big, chain: "bnb", confirmedAt: "2026-06-30T00:00:00.000Z" });
      await payment(m.id, { units: 1n, chain: "eth", confirmedAt: "2026-06-30T14:59:59.999Z" });
      await payment(m.id, { units: 100_000_001n, chain: "solana", confirmedAt: "2026-06-29T23:59:59.999Z" });
      await payment(m.id, { units: 2_500_000n, chain: "tron", confirmedAt: "2026-06-01T00:00:00.000Z" }); // day 30
      await payment(m.id, { units: 7_000_000n, chain: "polygon", confirmedAt: "2026-05-31T23:59:59.999Z" }); // day 31
      await payment(m.id, { units: 5_000_000n, chain: "eth", status: "confirming" });
      await payment(m.id, { units: 3_000_000n, chain: "eth", confirmedAt: "2026-06-30T10:00:00.000Z", mode: "live" });
      const other = await newMerchant();
      await payment(other.id, { units: 4_000_000n, chain: "eth", confirmedAt: "2026-06-30T10:00:00.000Z" });

      const days = await loadDailyVolume(getDb(), { merchantId: m.id, mode: "sandbox" }, NOW);
      expect(days).toHaveLength(30);
      expect(days[0]!.day).toBe("2026-06-01");
      expect(days.at(-1)!.day).toBe("2026-06-30");
      expect(days.filter((d) => d.payments > 0)).toEqual([
        { day: "2026-06-01", amount: "2.500000", payments: 1 },
        { day: "2026-06-29", amount: "100.000001", payments: 1 },
        { day: "2026-06-30", amount: "9007199254.740994", payments: 2 },
      ]);
      expect(days.find((d) => d.day === "2026-06-15")).toEqual({ day: "2026-06-15", amount: "0.000000", payments: 0 });
      expect(totalVolume(days)).toBe("9007199357.240995");
      const live = await loadDailyVolume(getDb(), { merchantId: m.id, mode: "live" }, NOW);
      expect(totalVolume(live)).toBe("3.000000");
    },
  );
});

// A chain whose head grows by one block a call, until told to fail (an RPC error quoting its keyed URL).
function chain(name: "tron" | "solana") {
  const state = { head: 0, failing: false };
  const block = (n: number): BlockRef => ({
    number: n,
    hash: `0x${n.toString(16).padStart(64, "0")}`,
    time: new Date(0),
  });
  const adapter = {
    chain: name,
    family: name,
    head: async () => {
      if (state.failing) throw new Error("request to https://rpc.example/v2/abcDEF1234567890ghij failed, ECONNRESET");
      return ++state.head;
    },
    blocks: async (ns: number[]) => new Map(ns.map((n) => [n, n <= state.head ? block(n) : null])),
    transfers: async () => [],
    balances: async () => ({ token: 0n, native: 0n }),
    sendToken: async () => "",
  } as unknown as ChainAdapter;
  return { adapter, state };
}

const target = (adapter: ChainAdapter): ScanTarget => ({
  mode: "live", // no live chain is configured in the tests; tests/chains/watch-loop.test.ts uses polygon and bnb
  chain: adapter.chain,
  decimals: 6,
  confirmations: { threshold: 2, required: 12 },
  lateWindowMs: 0,
  adapter,
  maxBlocksPerScan: 50,
  startAt: "genesis",
  keepBlocks: 16,
});

/** What listChainStatus reads of a chain's configuration (a live one: no live chain is configured in tests). */
const TRON_CONFIG = { chain: "tron", confirmations: { threshold: 2, required: 19 }, blockTimeMs: 3000 } as ChainConfig;

describe("chain health", () => {
  it(
    "reads what the watcher records: " +
      "OK while it keeps up, erroring after a failure (URL key stripped), lagging when behind or silent",
    async () => {
      await query(getDb(), "delete from chain_cursors where mode = 'live' and chain in ('tron', 'solana')");
      const tron = chain("tron");
      const stop = new AbortController();
      const loop = watchChain(getDb(), target(tron.adapter), stop.signal, { pollMs: 20 });
      const health = () => loadChainHealth(getDb(), "live", ["tron", "solana"]);
      const ok = await waitFor("tron OK", async () => {
        const [t] = await health();
        return t!.state === "ok" && (t!.processed ?? 0) > 5 ? t : null;
      });
      expect(ok.lag).toBeLessThanOrEqual(2);
      // GET /v1/chains reads the same record: healthy, with the policy the chain's configuration publishes.
      const [listed] = await listChainStatus(getDb(), "live", [TRON_CONFIG]);
      expect(listed).toMatchObject({
        chain: "tron",
        name: "Tron",
        confirmations: { confirming: 2, confirmed: 19 },
        status: "ok",
        healthy: true,
        last_error: null,
      });
      expect(listed!.lag_seconds).toBe(Math.round((listed!.lag_blocks! * 3000) / 1000));
      expect(ok.head! - ok.processed!).toBe(ok.lag);
      expect(ok.lastError).toBeNull();
      expect((await health())[1]).toMatchObject({ chain: "solana", state: "not watched", processed: null });

      tron.state.failing = true;
      const erroring = await waitFor("tron erroring", async () => {
        const [t] = await health();
        return t!.state === "erroring" ? t : null;
      });
      expect(erroring.lastError).toBe("request to https://rpc.example/v2/[redacted] failed, ECONNRESET");
      expect(erroring.lastErrorAt).not.toBeNull();
      expect((await listChainStatus(getDb(), "live", [TRON_CONFIG]))[0]).toMatchObject({
        status: "erroring",
        healthy: false,
        last_error: "request to https://rpc.example/v2/[redacted] failed, ECONNRESET",
      });
      tron.state.failing = false;
      // It recovers (the back-off retries after 0.5 s): the old error stays on record, the state is OK again.
      const recovered = await waitFor("tron OK again", async () => {
        const [t] = await health();
        return t!.state === "ok" ? t : null;
      });
      expect(recovered.lastError).toContain("ECONNRESET");
      stop.abort();
      await loop;

      const [now] = await health();
      const threeMinutesLater = new Date(Date.now() + 3 * 60_000);
      expect((await loadChainHealth(getDb(), "live", ["tron"], threeMinutesLater))[0]!.state).toBe("lagging");
      await recordHead(getDb(), { mode: "live", chain: "tron" }, now!.processed! + 51);
      expect((await health())[0]).toMatchObject({ state: "lagging", lag: 51 });
      await query(getDb(), "delete from chain_cursors where mode = 'live' and chain = 'tron'");
      await query(getDb(), "delete from chain_blocks where mode = 'live' and chain = 'tron'");
    },
  );
});
