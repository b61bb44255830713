import { generateMnemonic, mnemonicToSeedSync } from "@scure/bip39";
import { wordlist } from "@scure/bip39/wordlists/english.js";
import { runOnce } from "graphile-worker";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resetConfig } from "@/lib/platform/config/env";
import { getDb, getPool, inTransaction } from "@/lib/platform/db/client";
import { query } from "@/lib/platform/db/query";
import { enqueueJob } from "@/lib/platform/jobs/enqueue-job";
import { taskList } from "@/worker/task-list";
import { createPayment } from "@/lib/money-in/payments/create-payment";
import { selectPaymentChain } from "@/lib/money-in/payments/select-payment-chain";
import { deriveAddress } from "@/lib/chains/wallets/derive-address";
import { SOLANA_POOL_TARGET } from "@/lib/chains/wallets/solana-address-pool";
import { newMerchant } from "../helpers/api";

// Live mode at the domain level, as the worker (which holds the seed) and the web run it; the live Solana
// RPC points nowhere (nothing here calls it). No other test file uses live Solana, so the live pool is ours.
const mnemonic = generateMnemonic(wordlist, 256);
const seed = mnemonicToSeedSync(mnemonic);
const REFILL = "refill_solana_address_pool";

/**
 * What the worker does every minute (and when a payment asks): the job's handler, through graphile-worker. Under a
 * name only this file's runner knows: job workers of other test files share the database and would otherwise take
 * the job first (without this file's seed).
 */
const OWN_REFILL = `${REFILL}_${process.pid}` as typeof REFILL;
async function runRefillJob() {
  await enqueueJob(getDb(), OWN_REFILL, {}, { jobKey: OWN_REFILL });
  await runOnce({ pgPool: getPool(), taskList: { [OWN_REFILL]: taskList[REFILL] } });
}
const freeCount = async () =>
  (
    await query<{ n: number }>(
      getDb(),
      "select count(*)::int as n from solana_address_pool where mode = 'live' and allocated_at is null",
    )
  )[0]!.n;
const refillQueued = async () =>
  (
    await query<{ n: number }>(getDb(), "select count(*)::int as n from graphile_worker.jobs where key = $1", [REFILL])
  )[0]!.n;
const live = (merchantId: string) => ({ merchantId, mode: "live" as const });
const newPayment = (merchantId: string, chain?: "solana") =>
  inTransaction(getDb(), (tx) => createPayment(tx, live(merchantId), { amount: 1_000_000n, chain }));

beforeAll(async () => {
  process.env.LIVE_SEED_MNEMONIC = mnemonic;
  process.env.SOLANA_RPC_URL = "http://127.0.0.1:9";
  resetConfig();
  await query(getDb(), "delete from solana_address_pool where mode = 'live'");
});
afterAll(async () => {
  await query(getDb(), "select graphile_worker.remove_job($1)", [REFILL]);
});

describe("live Solana deposit addresses come from a pool the seed holder fills", () => {
  it("the refill job fills the pool with the seed's addresses, to the target and no further", async () => {
    await runRefillJob();
    const rows = await query<{ derivation_index: string; address: string }>(
      getDb(),
      "select derivation_index::text, address from solana_address_pool where mode = 'live' order by derivation_index",
    );
    expect(rows).toHaveLength(SOLANA_POOL_TARGET);
    for (const row of rows.slice(0, 20))
      expect(row.address).toBe(deriveAddress(seed, "solana", Number(row.derivation_index)).address);
    await runRefillJob();
    expect(await freeCount()).toBe(SOLANA_POOL_TARGET);
  });

  it("payments take pool addresses; concurrent ones never share one", async () => {
    const m = await newMerchant();
    const payments = await Promise.all(Array.from({ length: 24 }, () => newPayment(m.id, "solana")));
    const addresses = payments.map((p) => p.depositAddress);
    expect(new Set(addresses).size).toBe(24);
    const pool = await query<{ address: string; payment_id: string; derivation_index: string }>(
      getDb(),
      "select address, payment_id, derivation_index::text from solana_address_pool where payment_id = any($1::text[])",
      [payments.map((p) => p.id)],
    );
    expect(pool).toHaveLength(24);
    for (const p of payments) {
      expect(p.status).toBe("awaiting_payment");
      expect(pool.find((row) => row.payment_id === p.id)).toMatchObject({
        address: p.depositAddress,
        derivation_index: String(p.derivationIndex),
      });
    }
    expect(await freeCount()).toBe(SOLANA_POOL_TARGET - 24);
  });

  it("a payment that leaves the pool below the low-water mark queues a refill in its transaction", async () => {
    await query(getDb(), "select graphile_worker.remove_job($1)", [REFILL]);
    await query(
      getDb(),
      `delete from solana_address_pool where mode = 'live' and allocated_at is null and derivation_index not in (
         select derivation_index from solana_address_pool where mode = 'live' and allocated_at is null
         order by derivation_index limit 250)`,
    );
    await newPayment((await newMerchant()).id, "solana"); // 249 left
    expect(await refillQueued()).toBe(1);
    await runRefillJob();
    expect(await freeCount()).toBe(SOLANA_POOL_TARGET);
  });

  it("with the pool empty, the payment waits in intent_created and becomes payable (with its event) once the refill runs", async () => {
    await query(getDb(), "delete from solana_address_pool where mode = 'live' and allocated_at is null");
    const m = await newMerchant();
    const waiting = await newPayment(m.id, "solana");
    expect(waiting).toMatchObject({ status: "intent_created", chain: "solana", depositAddress: null, watchKey: null });
    const eventsOf = (id: string) =>
      query<{ type: string; body: string }>(
        getDb(),
        "select type, body from events where object_id = $1 order by created_at",
        [id],
      );
    expect(await eventsOf(waiting.id)).toEqual([]);
    expect(await refillQueued()).toBe(1);

    // The payer's choice of Solana on a chain-agnostic payment cannot wait the same way: a clear error, nothing changed.
    const agnostic = await newPayment(m.id);
    await expect(selectPaymentChain(getDb(), agnostic.id, "solana")).rejects.toMatchObject({
      type: "chain_disabled",
      param: "chain",
    });
    const [unchanged] = await query<{ chain: string | null }>(getDb(), "select chain from payments where id = $1", [
      agnostic.id,
    ]);
    expect(unchanged!.chain).toBeNull();

    await runRefillJob();
    // Another file's jobs worker may be running the refill queued above at that very moment, holding the waiting
    // payment while it finds no address (allocation skips locked rows): the next run gives it one, as the cron's
    // next minute does live.
    const statusOf = async () =>
      (await query<{ status: string }>(getDb(), "select status from payments where id = $1", [waiting.id]))[0]!.status;
    for (let i = 0; i < 5 && (await statusOf()) === "intent_created"; i++) await runRefillJob();
    const [row] = await query<{ status: string; deposit_address: string; watch_key: string; derivation_index: string }>(
      getDb(),
      "select status, deposit_address, watch_key, derivation_index::text from payments where id = $1",
      [waiting.id],
    );
    expect(row!.status).toBe("awaiting_payment");
    expect(row!.deposit_address).toBe(deriveAddress(seed, "solana", Number(row!.derivation_index)).address);
    expect(row!.watch_key).toBe(row!.deposit_address);
    const events = await eventsOf(waiting.id);
    expect(events.map((e) => e.type)).toEqual(["payment.awaiting_payment"]);
    expect(JSON.parse(events[0]!.body).data.object).toMatchObject({
      id: waiting.id,
      status: "awaiting_payment",
      chain: "solana",
      deposit_address: row!.deposit_address,
    });
    // And now the payer's choice gets an address too.
    expect((await selectPaymentChain(getDb(), agnostic.id, "solana")).depositAddress).toBeTruthy();
  });
});
