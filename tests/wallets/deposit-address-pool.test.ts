import { generateMnemonic, mnemonicToSeedSync } from "@scure/bip39";
import { wordlist } from "@scure/bip39/wordlists/english.js";
import { runOnce } from "graphile-worker";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Chain, ChainFamily } from "@/lib/chains/chains";
import { resetConfig } from "@/lib/platform/config/env";
import { getDb, getPool, inTransaction } from "@/lib/platform/db/client";
import { query } from "@/lib/platform/db/query";
import { enqueueJob } from "@/lib/platform/jobs/enqueue-job";
import { taskList } from "@/worker/task-list";
import { createPayment } from "@/lib/money-in/payments/create-payment";
import { selectPaymentChain } from "@/lib/money-in/payments/select-payment-chain";
import { prepareSimulatedPayment } from "@/lib/money-in/payments/simulate-payment";
import { accountXpub, deriveAddress } from "@/lib/chains/wallets/derive-address";
import {
  LOWEST_FREE,
  POOL_LOW_WATER,
  POOL_TARGET,
  REFILL_JOB,
  refillJobKey,
} from "@/lib/chains/wallets/deposit-address-pool";
import { newMerchant } from "../helpers/api";

// Live mode at the domain level, as the worker (which holds the seed) and the web run it; the live RPCs point
// nowhere (nothing here calls them). No other test file creates live payments with a chain, so the live pools are
// ours (the run's pool keeper fills sandbox pools only: it has no live seed).
const mnemonic = generateMnemonic(wordlist, 256);
const seed = mnemonicToSeedSync(mnemonic);
const FAMILIES: [ChainFamily, Chain][] = [
  ["evm", "polygon"],
  ["tron", "tron"],
  ["solana", "solana"],
];

/**
 * What the worker does when a claim asks and every minute: the job's handler, through graphile-worker. Under a
 * name only this file's runner knows: the run's pool keeper would otherwise take the job first (without the seed).
 */
const OWN_REFILL = `${REFILL_JOB}_${process.pid}` as typeof REFILL_JOB;
async function runRefillJob(family: ChainFamily) {
  await enqueueJob(
    getDb(),
    OWN_REFILL,
    { mode: "live", family, purpose: "payment" },
    { jobKey: `${OWN_REFILL}:${family}` },
  );
  await runOnce({ pgPool: getPool(), taskList: { [OWN_REFILL]: taskList[REFILL_JOB] } });
}
const freeCount = async (family: ChainFamily) =>
  (
    await query<{ n: number }>(
      getDb(),
      "select count(*)::int as n from deposit_address_pool " +
        "where mode = 'live' and family = $1 and purpose = 'payment' and allocated_at is null",
      [family],
    )
  )[0]!.n;
const live = (merchantId: string) => ({ merchantId, mode: "live" as const });
const newPayment = (merchantId: string, chain?: Chain) =>
  inTransaction(getDb(), (tx) => createPayment(tx, live(merchantId), { amount: 1_000_000n, chain }));

beforeAll(async () => {
  process.env.LIVE_SEED_MNEMONIC = mnemonic;
  for (const chain of ["POLYGON", "TRON", "SOLANA"]) process.env[`${chain}_RPC_URL`] = "http://127.0.0.1:9";
  resetConfig();
  await query(getDb(), "delete from deposit_address_pool where mode = 'live'");
});
afterAll(async () => {
  for (const [family] of FAMILIES)
    await query(getDb(), "select graphile_worker.remove_job($1)", [refillJobKey("live", family)]);
});

describe.each(FAMILIES)("live %s deposit addresses come from a pool the worker fills", (family, chain) => {
  it(
    "the refill job fills the pool with the seed's addresses, " +
      "gap-free from the counter, to the target and no further",
    async () => {
      const [{ next_index: before }] = (await query<{ next_index: string }>(
        getDb(),
        "select next_index::text from deposit_index_counters " +
          "where mode = 'live' and family = $1 and purpose = 'payment'",
        [family],
      )) as [{ next_index: string }];
      await runRefillJob(family);
      const rows = await query<{ derivation_index: string; address: string }>(
        getDb(),
        "select derivation_index::text as derivation_index, address from deposit_address_pool p where mode = 'live' " +
          "and family = $1 and purpose = 'payment' order by p.derivation_index",
        [family],
      );
      expect(rows).toHaveLength(POOL_TARGET);
      expect(rows.map((r) => Number(r.derivation_index))).toEqual(
        Array.from({ length: POOL_TARGET }, (_, i) => Number(before) + i),
      );
      for (const row of rows.filter((_, i) => i % 37 === 0))
        expect(row.address).toBe(deriveAddress(seed, family, Number(row.derivation_index)).address);
      const [counter] = await query<{ next_index: string }>(
        getDb(),
        "select next_index::text from deposit_index_counters " +
          "where mode = 'live' and family = $1 and purpose = 'payment'",
        [family],
      );
      expect(Number(counter!.next_index)).toBe(Number(before) + POOL_TARGET);
      await runRefillJob(family);
      expect(await freeCount(family)).toBe(POOL_TARGET);
    },
  );

  it("payments take the lowest free addresses; concurrent ones never share one", async () => {
    const m = await newMerchant();
    const [{ lowest }] = (await query<{ lowest: string }>(
      getDb(),
      "select min(derivation_index)::text as lowest from deposit_address_pool " +
        "where mode = 'live' and family = $1 and purpose = 'payment' and allocated_at is null",
      [family],
    )) as [{ lowest: string }];
    const payments = await Promise.all(Array.from({ length: 24 }, () => newPayment(m.id, chain)));
    expect(new Set(payments.map((p) => p.depositAddress)).size).toBe(24);
    expect(payments.map((p) => p.derivationIndex).sort((a, b) => a! - b!)).toEqual(
      Array.from({ length: 24 }, (_, i) => Number(lowest) + i),
    );
    const pool = await query<{ address: string; payment_id: string; derivation_index: string }>(
      getDb(),
      "select address, payment_id, derivation_index::text from deposit_address_pool where payment_id = any($1::text[])",
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
    expect(await freeCount(family)).toBe(POOL_TARGET - 24);
  });

  it(
    "a payment that leaves the pool below the low-water mark " + "queues the pool's refill in its own transaction",
    async () => {
      const m = await newMerchant();
      await query(getDb(), "select graphile_worker.remove_job($1)", [refillJobKey("live", family)]);
      // Leave exactly POOL_LOW_WATER free: the next claim takes one of them.
      await query(
        getDb(),
        `delete from deposit_address_pool
         where mode = 'live' and family = $1 and purpose = 'payment' and allocated_at is null
         and derivation_index not in (
           select derivation_index from deposit_address_pool
           where mode = 'live' and family = $1 and purpose = 'payment' and allocated_at is null
           order by derivation_index limit $2)`,
        [family, POOL_LOW_WATER],
      );
      await query(
        getDb(),
        `update deposit_index_counters set next_index = (select max(derivation_index) + 1 from deposit_address_pool
         where mode = 'live' and family = $1 and purpose = 'payment')
         where mode = 'live' and family = $1 and purpose = 'payment'`,
        [family],
      );
      const queuedIn = (tx: Parameters<Parameters<typeof inTransaction>[1]>[0]) =>
        query<{ payload: { mode: string; family: string } }>(
          tx,
          "select payload from graphile_worker._private_jobs where key = $1",
          [refillJobKey("live", family)],
        );
      // Read inside the payment's transaction: the run's pool keeper takes committed refill jobs at once.
      const asked = await inTransaction(getDb(), async (tx) => {
        await createPayment(tx, live(m.id), { amount: 1_000_000n, chain });
        return queuedIn(tx);
      });
      expect(asked.map((j) => j.payload)).toEqual([{ mode: "live", family, purpose: "payment" }]);
      await runRefillJob(family);
      expect(await freeCount(family)).toBe(POOL_TARGET);
    },
  );

  it(
    "with the pool empty, the payment waits in intent_created and " +
      "becomes payable (with its event) once the refill runs",
    async () => {
      await query(
        getDb(),
        "delete from deposit_address_pool " +
          "where mode = 'live' and family = $1 and purpose = 'payment' and allocated_at is null",
        [family],
      );
      const m = await newMerchant();
      const waiting = await newPayment(m.id, chain);
      expect(waiting).toMatchObject({ status: "intent_created", chain, depositAddress: null, watchKey: null });
      const eventsOf = (id: string) =>
        query<{ type: string; body: string }>(
          getDb(),
          "select type, body from events where object_id = $1 order by created_at",
          [id],
        );
      expect(await eventsOf(waiting.id)).toEqual([]);
      // Asked to pay it meanwhile, the sandbox's simulate says why it cannot yet (the check is the same in sandbox).
      await expect(
        prepareSimulatedPayment(getDb(), { merchantId: m.id, mode: "live" }, waiting.id),
      ).rejects.toMatchObject({
        type: "invalid_request_error",
        param: "id",
        message: expect.stringContaining("deposit address is not ready yet"),
      });

      // The payer's choice of this network on a chain-agnostic payment cannot wait the same way: a clear error,
      // nothing changed.
      const agnostic = await newPayment(m.id);
      await expect(selectPaymentChain(getDb(), agnostic.id, chain)).rejects.toMatchObject({
        type: "chain_disabled",
        param: "chain",
      });
      const [unchanged] = await query<{ chain: string | null }>(getDb(), "select chain from payments where id = $1", [
        agnostic.id,
      ]);
      expect(unchanged!.chain).toBeNull();

      await runRefillJob(family);
      const [row] = await query<{ status: string; deposit_address: string; derivation_index: string }>(
        getDb(),
        "select status, deposit_address, derivation_index::text from payments where id = $1",
        [waiting.id],
      );
      expect(row!.status).toBe("awaiting_payment");
      expect(row!.deposit_address).toBe(deriveAddress(seed, family, Number(row!.derivation_index)).address);
      const events = await eventsOf(waiting.id);
      expect(events.map((e) => e.type)).toEqual(["payment.awaiting_payment"]);
      expect(JSON.parse(events[0]!.body).data.object).toMatchObject({
        id: waiting.id,
        status: "awaiting_payment",
        chain,
        deposit_address: row!.deposit_address,
      });
      // And now the payer's choice gets an address too.
      expect((await selectPaymentChain(getDb(), agnostic.id, chain)).depositAddress).toBeTruthy();
    },
  );
});

describe("a worker that cannot derive a pool", () => {
  it("leaves it alone: the refill succeeds with nothing to do and the payment keeps waiting", async () => {
    // The web's configuration without the seed: live Solana is offered (a seed holder fills its pool), but
    // this process cannot derive its addresses.
    delete process.env.LIVE_SEED_MNEMONIC;
    process.env.LIVE_EVM_XPUB = accountXpub(seed, "evm");
    resetConfig();
    try {
      await query(
        getDb(),
        "delete from deposit_address_pool where mode = 'live' and family = 'solana' and allocated_at is null",
      );
      const waiting = await newPayment((await newMerchant()).id, "solana");
      expect(waiting.status).toBe("intent_created");
      await runRefillJob("solana");
      expect(await freeCount("solana")).toBe(0);
      const [queued] = await query<{ n: number }>(
        getDb(),
        "select count(*)::int as n from graphile_worker.jobs where key = $1",
        [`${OWN_REFILL}:solana`],
      );
      expect(queued!.n).toBe(0); // done, not failed and waiting for a retry
      const [still] = await query<{ status: string }>(getDb(), "select status from payments where id = $1", [
        waiting.id,
      ]);
      expect(still!.status).toBe("intent_created");
    } finally {
      process.env.LIVE_SEED_MNEMONIC = mnemonic;
      delete process.env.LIVE_EVM_XPUB;
      resetConfig();
    }
  });
});

describe("a claim reads free addresses only, however many were taken before", () => {
  it("its plan takes the free addresses' index even when the statistics saw the pool all free", async () => {
    // The planner's worst case: statistics taken while every address was free, then most taken, and a
    // generic plan (prepared statements). A plan on the primary key would read past every taken address.
    const client = await getPool().connect();
    try {
      await client.query("begin");
      await client.query(
        `insert into deposit_address_pool (mode, family, derivation_index, address)
         select 'live', 'evm', 1000000000 + g, 'probe-' || g from generate_series(0, 2999) g`,
      );
      await client.query("analyze deposit_address_pool");
      await client.query(
        `update deposit_address_pool set payment_id = 'probe-' || derivation_index, allocated_at = now()
         where mode = 'live' and family = 'evm' and derivation_index < 1000002500`,
      );
      await client.query("set local plan_cache_mode = force_generic_plan");
      await client.query(`prepare lowest_free_probe(text, text) as ${LOWEST_FREE}`);
      const [{ "QUERY PLAN": plan }] = (
        await client.query("explain (format json) execute lowest_free_probe('live', 'evm')")
      ).rows as [{ "QUERY PLAN": unknown }];
      const indexes = JSON.stringify(plan).match(/"Index Name":"[^"]+"/g);
      expect(indexes).toEqual(['"Index Name":"deposit_address_pool_free_order"']);
    } finally {
      await client.query("rollback");
      await client.query("deallocate lowest_free_probe");
      client.release();
    }
  });
});
