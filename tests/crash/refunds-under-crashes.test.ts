import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { checkLedgerConsistency } from "@/lib/books/ledger/check-ledger-consistency";
import type { Chain } from "@/lib/chains/chains";
import { createOutboundDriver } from "@/lib/chains/connect/chain-families";
import { candidateRow } from "@/lib/money-out/outbound/outbound-row";
import { getDb } from "@/lib/platform/db/client";
import { query } from "@/lib/platform/db/query";
import type { SpawnedWorker } from "@/scripts/lib/spawn-worker";
import { waitFor } from "../custody/outbound-helpers";
import { paidPayment } from "../custody/payment-helpers";
import { api, newMerchant, type TestMerchant } from "../helpers/api";
import { sandboxChain } from "../helpers/chains";
import { type Recipients, recipientsOn, startWorker } from "./settled-payouts";

// A refund's transfer signed and stored, then the worker SIGKILLed before it is sent (OUTBOUND_CRASH_AT
// after_sign): the next worker sends those stored bytes, and the payer receives the amount exactly once. The
// engine is the payouts' (each family's crash points are proven there, tests/crash/crash-points-under-load.test.ts);
// one chain shows that a refund rides it the same way.
const CASES: Chain[] = ["polygon"];

let m: TestMerchant;
let worker: SpawnedWorker | undefined;
const recipients = {} as Record<Chain, Recipients>;
const payments = {} as Record<Chain, string>;

beforeAll(async () => {
  [worker, m] = await Promise.all([startWorker(), newMerchant("Refunds under crashes")]);
  for (const chain of CASES) recipients[chain] = await recipientsOn(chain);
  for (const chain of CASES) {
    await paidPayment(m, chain, "3.000000", 120_000);
    const [row] = await query<{ id: string }>(
      getDb(),
      "select id from payments where merchant_id = $1 and chain = $2 and status = 'confirmed'",
      [m.id, chain],
    );
    payments[chain] = row!.id;
  }
  await worker.stop();
  worker = undefined;
}, 240_000);

afterAll(async () => {
  await worker?.stop();
});

/** The refund's transfer candidates, and whether a node has each. */
async function candidatesOf(chain: Chain, refundId: string) {
  const driver = createOutboundDriver(await sandboxChain(chain));
  const rows = await query(
    getDb(),
    `select ${candidateRow.prefixed("c")} from outbound_candidates c
       join outbound_transactions o on o.id = c.outbound_id
      where o.purpose = 'refund' and o.cause_id = $1`,
    [refundId],
  );
  return Promise.all(
    rows.map(candidateRow.map).map(async (c) => ({ ...c, known: (await driver.lookup(c)).state !== "unknown" })),
  );
}

describe("a refund's worker SIGKILLed after signing, before sending", () => {
  it.each(CASES)(
    "on %s: the stored transfer is sent after the restart, and the payer is paid once",
    async (chain) => {
      const to = await recipients[chain].freshAddress();
      const created = await api("POST", "/v1/refunds", {
        key: m.sandboxKey,
        body: { payment: payments[chain], amount: "1.750000", destination: "address", to_address: to },
      });
      expect(created.status, created.text).toBe(200);
      const refundId = created.json.id as string;

      // The kill may first hit another of the chain's transfers (the sweep that brings the treasury the USDT, its
      // gas): the worker is started, and dies, again until the transfer it stored is the refund's.
      let stored: Awaited<ReturnType<typeof candidatesOf>> = [];
      let attempt = 1;
      for (; stored.length === 0; attempt++) {
        expect(attempt, "the refund's transfer was never signed").toBeLessThan(9);
        const crashed = await startWorker({ OUTBOUND_CRASH_AT: "after_sign", OUTBOUND_CRASH_CHAINS: chain }).then(
          (w) => w.exited,
          (err: Error) => err.cause as NodeJS.Signals | number | null,
        );
        expect(crashed).toBe("SIGKILL");
        stored = await candidatesOf(chain, refundId);
      }
      console.log(`${chain}: the refund's transfer stored at kill ${attempt - 1}`);
      // The kill hit: the refund's signature is stored, and no node has it.
      expect(stored).toHaveLength(1);
      expect(stored[0]).toMatchObject({ status: "signed", known: false });

      worker = await startWorker();
      // Watched in the database: polling the API every 50 ms would spend the key's 60 requests a minute, and the
      // reads below would be refused (429).
      await waitFor(
        `${refundId} succeeded`,
        async () => {
          const [now] = await query<{ status: string }>(getDb(), "select status from refunds where id = $1", [
            refundId,
          ]);
          if (now?.status === "failed") throw new Error(`${refundId} failed`);
          return now?.status === "succeeded";
        },
        120_000,
      );
      await worker.stop();
      worker = undefined;
      const read = await api("GET", `/v1/refunds/${refundId}`, { key: m.sandboxKey });
      expect(read.status, read.text).toBe(200);
      const done = read.json;
      expect(done.status).toBe("succeeded");
      // The bytes stored before the kill are what landed: no second signature was needed.
      expect(done.tx_hash).toBe(stored[0]!.txHash);
      const scale = 10n ** BigInt(recipients[chain].decimals - 6);
      expect(await recipients[chain].tokenOf(to)).toBe(1_750_000n * scale);
      expect(await recipients[chain].transfersTo(to)).toBe(1);
      const paid = await api("GET", `/v1/payments/${payments[chain]}`, { key: m.sandboxKey });
      expect(paid.status, paid.text).toBe(200);
      expect(paid.json.amount_refunded).toBe("1.750000");
      expect(await checkLedgerConsistency(getDb(), m.id)).toEqual([]);
    },
    240_000,
  );
});
