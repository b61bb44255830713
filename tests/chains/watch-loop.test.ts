import { describe, expect, it } from "vitest";
import type { BlockRef, ChainAdapter } from "@/lib/chains/chain-adapter";
import { getDb } from "@/lib/platform/db/client";
import { readCursor } from "@/lib/money-in/watch/chain-cursor";
import type { ScanTarget } from "@/lib/money-in/watch/scan-chain";
import { watchChain } from "@/lib/money-in/watch/watch-chain";

// A chain whose head grows by one block every call; no token transfers.
function growingChain(): ChainAdapter {
  let head = 0;
  const block = (n: number): BlockRef => ({
    number: n,
    hash: `0x${n.toString(16).padStart(64, "0")}`,
    time: new Date(0),
  });
  return {
    chain: "polygon",
    family: "evm",
    network: async () => "137",
    head: async () => ++head,
    blocks: async (ns) => new Map(ns.map((n) => [n, n <= head ? block(n) : null])),
    transfers: async () => [],
    transactionTransfers: async () => null,
    balances: async () => ({ token: 0n, native: 0n }),
    frozen: async () => false,
    sendToken: async () => "",
  };
}

const brokenChain = (calls: number[]): ChainAdapter => ({
  ...growingChain(),
  chain: "bnb",
  head: async () => {
    calls.push(Date.now());
    throw new Error("connect ECONNREFUSED");
  },
});

const target = (adapter: ChainAdapter): ScanTarget => ({
  mode: "live", // no live chain is configured in the tests, so nothing else scans these cursors
  chain: adapter.chain,
  decimals: 6,
  confirmations: { threshold: 2, required: 12 },
  lateWindowMs: 0,
  adapter,
  maxBlocksPerScan: 50,
  startAt: "genesis",
  keepBlocks: 256,
});

describe("watcher loops", () => {
  it("an RPC failing on one chain backs off (0.5 s, 1 s, …) without slowing another chain", async () => {
    const stop = new AbortController();
    const calls: number[] = [];
    const healthy = watchChain(getDb(), target(growingChain()), stop.signal, { pollMs: 20 });
    const started = Date.now();
    await watchChain(getDb(), target(brokenChain(calls)), stop.signal, { pollMs: 20, maxFailures: 3 });
    const elapsed = Date.now() - started;
    // Three attempts: at once, after 0.5 s, after 1 s more; then the loop gives up so its caller can
    // reload configuration.
    expect(calls).toHaveLength(3);
    expect(calls[1]! - calls[0]!).toBeGreaterThanOrEqual(480);
    expect(calls[2]! - calls[1]!).toBeGreaterThanOrEqual(980);
    expect(elapsed).toBeLessThan(3_000);
    // Meanwhile the healthy chain kept scanning block after block: a loop that waited on the other's 1.5 s of
    // backoff would have scanned one or two blocks (unloaded it scans ~40; under a CI's load, 16 were seen).
    const cursor = await readCursor(getDb(), { mode: "live", chain: "polygon" });
    expect(cursor!.number).toBeGreaterThan(8);
    stop.abort();
    await healthy;
    expect(await readCursor(getDb(), { mode: "live", chain: "bnb" })).toBeNull();
  });
});
