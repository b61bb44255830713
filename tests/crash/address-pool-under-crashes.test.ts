import { type ChildProcess, spawn } from "node:child_process";
import path from "node:path";
import { generateMnemonic, mnemonicToSeedSync } from "@scure/bip39";
import { wordlist } from "@scure/bip39/wordlists/english.js";
import { afterAll, describe, expect, it } from "vitest";
import { resetConfig } from "@/lib/platform/config/env";
import { getDb, inTransaction } from "@/lib/platform/db/client";
import { query } from "@/lib/platform/db/query";
import { deriveAddress } from "@/lib/chains/wallets/derive-address";
import { refillDepositAddressPool } from "@/lib/chains/wallets/refill-deposit-address-pool";
import { allocateWaitingPayments } from "@/lib/money-in/payments/allocate-waiting-payments";
import { entryPoint } from "@/scripts/lib/entry-bundles";
import { newMerchant } from "../helpers/api";

// Live Tron's pool, which no other file of this phase uses: one process refilling it (to a small target, so it
// is nearly always inside a top-up) and two taking addresses for payments, SIGKILLed at random moments and
// started again. Whatever a kill interrupts, the database keeps the pool whole: no address given to two
// payments, none given that its payment does not hold, and the derived indexes gap-free.
const root = path.resolve(import.meta.dirname, "../..");
const mnemonic = generateMnemonic(wordlist, 256);
const seed = mnemonicToSeedSync(mnemonic);
const KILLS = 14;

interface Churn {
  child: ChildProcess;
  output: string;
  exited: Promise<unknown>;
}
const running = new Set<Churn>();

function churn(role: "refill" | "claim", merchantId: string): Churn {
  // From its bundle in a test run (a start through tsx took 5-15 s of the kill loop on a loaded machine).
  const entry = entryPoint(path.join(root, "tests/fixtures/address-pool-churn.ts"));
  const child = spawn(process.execPath, [...entry.execArgv, entry.file, role], {
    cwd: root,
    env: {
      ...process.env,
      LIVE_SEED_MNEMONIC: mnemonic,
      TRON_RPC_URL: "http://127.0.0.1:9",
      CHURN_MERCHANT: merchantId,
      CHURN_TARGET: "150",
      LOG_LEVEL: "error",
    },
    stdio: ["ignore", "pipe", "inherit"],
  });
  const c: Churn = { child, output: "", exited: new Promise((r) => child.once("exit", r)) };
  child.stdout!.on("data", (d) => (c.output += d));
  running.add(c);
  return c;
}
async function kill(c: Churn) {
  c.child.kill("SIGKILL");
  await c.exited;
  running.delete(c);
}
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

afterAll(async () => {
  await Promise.all([...running].map(kill));
});

describe("the deposit address pool under SIGKILL", () => {
  it("never hands one address to two payments, nor leaves a gap in the derived indexes", async () => {
    process.env.LIVE_SEED_MNEMONIC = mnemonic;
    process.env.TRON_RPC_URL = "http://127.0.0.1:9";
    resetConfig();
    const m = await newMerchant("Address pool churn");
    const [start] = await query<{ next_index: string }>(
      getDb(),
      "select next_index::text from deposit_index_counters " +
        "where mode = 'live' and family = 'tron' and purpose = 'payment'",
    );
    const [existing] = await query<{ n: number }>(
      getDb(),
      "select count(*)::int as n from deposit_address_pool " +
        "where mode = 'live' and family = 'tron' and purpose = 'payment'",
    );
    expect(existing!.n).toBe(0); // the pool is ours

    let refiller = churn("refill", m.id);
    let claimers = [churn("claim", m.id), churn("claim", m.id)];
    let refillsCut = 0;
    // Wait for the processes to load and start working before the first kill.
    for (let i = 0; i < 600 && !refiller.output.includes("refill done"); i++) await sleep(50);
    for (let k = 0; k < KILLS; k++) {
      await sleep(150 + Math.floor(Math.random() * 350));
      if (k % 2 === 0) {
        // A kill meant for a top-up waits for the new refiller to be in one (it loads slower on a busy machine).
        for (let i = 0; i < 1_200 && !refiller.output.includes("refill start"); i++) await sleep(50);
        await sleep(Math.floor(Math.random() * 150));
        const lines = refiller.output.trim().split("\n");
        await kill(refiller);
        if (lines.at(-1) === "refill start") refillsCut++;
        refiller = churn("refill", m.id);
      } else {
        const victim = claimers[k % 4 === 1 ? 0 : 1]!;
        await kill(victim);
        claimers = claimers.map((c) => (c === victim ? churn("claim", m.id) : c));
      }
    }
    await sleep(1_000);
    await Promise.all([...running].map(kill));
    // Some kills fell inside a top-up (the refiller spends nearly all its time in one).
    expect(refillsCut).toBeGreaterThan(0);

    // What the worker does next: top the pool up and give waiting payments their addresses.
    for (let round = 0; round < 100; round++) {
      await refillDepositAddressPool(getDb(), "live", "tron", 200);
      if ((await inTransaction(getDb(), (tx) => allocateWaitingPayments(tx, "live", "tron"))) === 0) break;
    }

    const payments = await query<{
      id: string;
      status: string;
      deposit_address: string | null;
      derivation_index: string | null;
    }>(getDb(), "select id, status, deposit_address, derivation_index::text from payments where merchant_id = $1", [
      m.id,
    ]);
    expect(payments.length).toBeGreaterThan(100);
    const pool = await query<{ derivation_index: string; address: string; payment_id: string | null }>(
      getDb(),
      "select derivation_index::text as derivation_index, address, payment_id from deposit_address_pool p where " +
        "mode = 'live' and family = 'tron' and purpose = 'payment' order by p.derivation_index",
    );
    const [counter] = await query<{ next_index: string }>(
      getDb(),
      "select next_index::text from deposit_index_counters " +
        "where mode = 'live' and family = 'tron' and purpose = 'payment'",
    );
    // Gap-free: every index from where the run began to the counter was derived, once, with the seed's address.
    expect(pool.map((r) => Number(r.derivation_index))).toEqual(
      Array.from(
        { length: Number(counter!.next_index) - Number(start!.next_index) },
        (_, i) => Number(start!.next_index) + i,
      ),
    );
    for (const row of pool) expect(row.address).toBe(deriveAddress(seed, "tron", Number(row.derivation_index)).address);
    // Every payment has its address (none left waiting with addresses free), each its own, the pool's row saying so;
    // and no pool row is held for a payment that does not exist (a claim whose transaction died gave it back).
    expect(payments.filter((p) => p.status !== "awaiting_payment").map((p) => p.status)).toEqual([]);
    expect(new Set(payments.map((p) => p.deposit_address)).size).toBe(payments.length);
    const byPayment = new Map(pool.filter((r) => r.payment_id).map((r) => [r.payment_id!, r]));
    expect(byPayment.size).toBe(payments.length);
    for (const p of payments)
      expect(byPayment.get(p.id)).toMatchObject({ address: p.deposit_address, derivation_index: p.derivation_index });
  }, 180_000);
});
