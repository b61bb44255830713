import { afterAll, beforeAll, describe, it } from "vitest";
import type { Chain } from "@/lib/chains/chains";
import { getDb } from "@/lib/platform/db/client";
import { query } from "@/lib/platform/db/query";
import type { SpawnedWorker } from "@/scripts/lib/spawn-worker";
import { newKey, newMerchant, type TestMerchant } from "../helpers/api";
import { waitFor } from "../custody/outbound-helpers";
import { paidPayment } from "../custody/payment-helpers";
import {
  CHAINS,
  createPayouts,
  expectPaidOutOnce,
  recipientsOn,
  type Recipients,
  startWorker,
} from "./settled-payouts";

// This phase owns every sandbox chain (a stack of its own, vitest.crash.config.ts): one worker process, as
// production runs it (jobs, watchers and outbound leaders of all five chains), SIGKILLed at random moments
// while 50 payouts go through liquidity sweeps, signing, broadcast and confirmation.
const PER_CHAIN = 10;
const KILLS = 5;

let worker: SpawnedWorker;
let m: TestMerchant;
const recipients = {} as Record<Chain, Recipients>;

beforeAll(async () => {
  [worker, m] = await Promise.all([startWorker(), newMerchant("Payouts under crashes")]);
  for (const chain of CHAINS) recipients[chain] = await recipientsOn(chain);
  // Each chain's balance comes from one payment; the treasuries start empty, so the payouts wait for
  // liquidity and the sweeps they ask for run under the crashes too.
  await Promise.all(CHAINS.map((chain) => paidPayment(m, chain, "25.000000", 120_000)));
}, 240_000);

afterAll(async () => {
  await worker?.stop();
});

describe("50 payouts across the five chains while the worker is SIGKILLed at 5 random moments", () => {
  it("every payout ends confirmed with exactly one transfer on chain; " +
    "the ledger and the custody books reconcile", async () => {
    const keys = await Promise.all(Array.from({ length: 5 }, () => newKey(m.id, "sandbox")));
    const planned = await Promise.all(
      CHAINS.flatMap((chain) =>
        Array.from({ length: PER_CHAIN }, async () => ({ chain, to: await recipients[chain].freshAddress() })),
      ),
    );
    // The API allows 10 payout calls a minute per key: five keys, ten calls each, all at once.
    const ids = await createPayouts(
      keys.map((k) => k.secret),
      planned,
      "1.000000",
    );

    // The first kill lands while payouts are being executed (a job of the dead process holds its lock), the
    // other four at random moments in the next 40 s; after each kill the worker starts again at once.
    // CRASH_MOMENTS="4.4,8.6,…" (seconds after the payouts were created) replays a printed schedule instead.
    const start = Date.now();
    const moments = process.env.CRASH_MOMENTS
      ? process.env.CRASH_MOMENTS.split(",").map((s) => Number(s) * 1000)
      : [
          await waitFor("an execute_payout job to be running", async () => {
            const [locked] = await query(
              getDb(),
              "select 1 from graphile_worker.jobs where task_identifier = 'execute_payout' and locked_by is not null",
            );
            return locked && Math.max(1, Date.now() - start);
          }),
          ...Array.from({ length: KILLS - 1 }, () => 1_000 + Math.random() * 39_000).sort((a, b) => a - b),
        ];
    for (const at of moments) {
      await new Promise((r) => setTimeout(r, Math.max(0, start + at - Date.now())));
      await worker.kill();
      worker = await startWorker();
    }
    console.log(`SIGKILL at ${moments.map((ms) => `${(ms / 1000).toFixed(1)} s`).join(", ")}`);

    await expectPaidOutOnce(m, recipients, planned, ids, 1_000_000n, "15.000000");
  }, 600_000);
});
