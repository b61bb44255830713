import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Chain } from "@/lib/chains/chains";
import { getDb } from "@/lib/platform/db/client";
import { query } from "@/lib/platform/db/query";
import { formatAmount } from "@/lib/kernel/amount";
import { createOutboundDriver } from "@/lib/chains/connect/chain-families";
import { candidateRow } from "@/lib/money-out/outbound/outbound-row";
import type { SpawnedWorker } from "@/scripts/lib/spawn-worker";
import { newKey, newMerchant, type TestMerchant } from "../helpers/api";
import { sandboxChain } from "../helpers/chains";
import { paidPayment } from "../custody/payment-helpers";
import {
  CHAINS,
  createPayouts,
  expectPaidOutOnce,
  type PlannedPayout,
  recipientsOn,
  type Recipients,
  startWorker,
} from "./settled-payouts";

// The two outbound crash points, hit for certain on every chain family, twice each, while payouts flow on all
// five chains: a worker (all chains' jobs, watchers and leaders, as production runs it) started with
// OUTBOUND_CRASH_AT and OUTBOUND_CRASH_CHAINS SIGKILLs itself right after it stores a signature on the chain
// under test (signed but never sent) or right after a node accepted one (sent but never recorded), while its
// other chains keep sending. Each kill is checked to have hit: the chain's journal holds a new candidate the
// node does not know, or a new one it does know that was never recorded as sent.
type Point = "after_sign" | "after_broadcast";
const STEPS: [Chain, Point][] = [
  ["eth", "after_sign"],
  ["tron", "after_sign"],
  ["solana", "after_sign"],
  ["bnb", "after_broadcast"],
  ["tron", "after_broadcast"],
  ["solana", "after_broadcast"],
  ["polygon", "after_sign"],
  ["tron", "after_sign"],
  ["solana", "after_sign"],
  ["eth", "after_broadcast"],
  ["tron", "after_broadcast"],
  ["solana", "after_broadcast"],
];
const AMOUNT = "0.200000";

let m: TestMerchant;
let worker: SpawnedWorker | undefined;
const recipients = {} as Record<Chain, Recipients>;

beforeAll(async () => {
  [worker, m] = await Promise.all([startWorker(), newMerchant("Crash points under load")]);
  for (const chain of CHAINS) recipients[chain] = await recipientsOn(chain);
  await Promise.all(CHAINS.map((chain) => paidPayment(m, chain, "10.000000", 120_000)));
  await worker.stop();
  worker = undefined;
}, 240_000);

afterAll(async () => {
  await worker?.stop();
});

/** The chain's candidates whose signature is stored but not recorded as sent, split by whether a node has them. */
async function unrecorded(chain: Chain): Promise<{ unsent: Set<string>; sent: Set<string> }> {
  const driver = createOutboundDriver(await sandboxChain(chain));
  const rows = await query(
    getDb(),
    `select ${candidateRow.prefixed("c")} from outbound_candidates c
       join outbound_transactions o on o.id = c.outbound_id
      where o.mode = 'sandbox' and o.chain = $1 and c.status = 'signed'`,
    [chain],
  );
  const found = { unsent: new Set<string>(), sent: new Set<string>() };
  for (const candidate of rows.map(candidateRow.map)) {
    const at = await driver.lookup(candidate);
    found[at.state === "unknown" ? "unsent" : "sent"].add(candidate.txHash);
  }
  return found;
}

/**
 * The candidates the kill left at its point: a new one no node has (after_sign: it stays so, nothing else
 * sends it), or a new one a node has though its journal says signed (after_broadcast: Tron's node shows a
 * transaction once it is in a block, so this waits a few blocks for it).
 */
async function newlyUnrecorded(chain: Chain, point: Point, before: Awaited<ReturnType<typeof unrecorded>>) {
  const deadline = Date.now() + (point === "after_sign" ? 0 : 10_000);
  for (;;) {
    const after = await unrecorded(chain);
    const fresh =
      point === "after_sign"
        ? [...after.unsent].filter((hash) => !before.unsent.has(hash))
        : [...after.sent].filter((hash) => !before.sent.has(hash));
    if (fresh.length > 0 || Date.now() > deadline) return fresh;
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** Starts a worker that dies at `point` on `chain` and waits for it (it may die before it reports ready). */
async function crashRun(chain: Chain, point: Point): Promise<NodeJS.Signals | number | null> {
  const env = { OUTBOUND_CRASH_AT: point, OUTBOUND_CRASH_CHAINS: chain };
  const ended = await startWorker(env).then(
    (w) => w.exited,
    (err: Error) => err.cause as NodeJS.Signals | number | null,
  );
  return ended;
}

describe("each outbound crash point hit on each chain family, twice, while payouts flow on all five chains", () => {
  it("every kill hit where it was aimed; " +
    "afterwards every payout is confirmed once and the books reconcile", async () => {
    const planned: PlannedPayout[] = [];
    const ids: string[] = [];
    const hits: string[] = [];
    for (const [i, [chain, point]] of STEPS.entries()) {
      // Load on every chain, and at least one transfer to sign on the chain under test.
      const key = (await newKey(m.id, "sandbox")).secret;
      const wave = await Promise.all(CHAINS.map(async (c) => ({ chain: c, to: await recipients[c].freshAddress() })));
      ids.push(...(await createPayouts([key], wave, AMOUNT)));
      planned.push(...wave);

      // A kill at after_broadcast may hit a re-send of a transaction already recorded as sent (a node that has
      // not mined it yet is offered it again): that crash changes nothing, so the worker is started again until
      // a kill leaves a transaction sent but unrecorded.
      let attempts = 0;
      for (;;) {
        attempts++;
        const before = await unrecorded(chain);
        expect(await crashRun(chain, point), `step ${i + 1}: ${chain} ${point}`).toBe("SIGKILL");
        const fresh = await newlyUnrecorded(chain, point, before);
        if (fresh.length === 1) break;
        expect(fresh, `step ${i + 1}: ${chain} ${point}`).toHaveLength(0);
        expect(attempts, `step ${i + 1}: ${chain} ${point} never left a candidate sent but unrecorded`).toBeLessThan(4);
      }
      hits.push(`${chain} ${point}${attempts > 1 ? ` (${attempts} kills)` : ""}`);
    }

    console.log(`crash points hit: ${hits.join(", ")}`);
    worker = await startWorker();
    const left = formatAmount(10_000_000n - BigInt(STEPS.length) * 200_000n);
    await expectPaidOutOnce(m, recipients, planned, ids, 200_000n, left);
  }, 600_000);
});
