import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/lib/platform/db/client";
import { query } from "@/lib/platform/db/query";
import { checkLedgerConsistency } from "@/lib/books/ledger/check-ledger-consistency";
import { TEST_SOLANA_FINALITY_DEPTH, TEST_TRON_SOLID_LAG } from "../setup/sandbox-chains";
import type { SpawnedWorker } from "@/scripts/lib/spawn-worker";
import { api, newMerchant, type TestMerchant } from "../helpers/api";
import { balanceOf, paymentEvents, startWatcherProcess, waitForBalance, watchPayment } from "../helpers/chains";
import { solanaPayer, tronPayer } from "../helpers/emulated-wallets";

// The two emulated chains, end to end: tron (anvil behind a Tron API facade, 0.5 s blocks, confirmed once
// solidified) and solana (LiteSVM behind a JSON-RPC facade, 200 ms slots, confirmed once finalized), each paid
// with the chain's own client library, watched by a real worker process. The test stack's depths are shallower
// than mainnet's (tests/setup/sandbox-chains.ts); the service reads them from the chains' registrations.
let worker: SpawnedWorker;
beforeAll(async () => {
  worker = await startWatcherProcess(["tron", "solana"]);
});
afterAll(async () => {
  await worker?.stop();
});

const payers = { tron: tronPayer, solana: solanaPayer };
const REQUIRED = { tron: TEST_TRON_SOLID_LAG, solana: TEST_SOLANA_FINALITY_DEPTH };

async function createPayment(m: TestMerchant, body: Record<string, unknown>) {
  const reply = await api("POST", "/v1/payments", { key: m.sandboxKey, body });
  expect(reply.status, reply.text).toBe(200);
  return reply.json;
}

describe.each(["tron", "solana"] as const)("a payment on %s (emulated), paid with the chain's own client", (chain) => {
  it("goes pending → confirming → confirmed and the balance is credited once", async () => {
    const m = await newMerchant();
    const payment = await createPayment(m, { amount: "7.500000", chain });
    const payer = await payers[chain](m.sandboxKey, "10.000000");
    const txHash = await payer.send(payment.deposit_address, 7_500_000n);

    const seen = await watchPayment(m.id, payment.id, (p) => p.status === "confirmed", 40_000);
    // The order is checked on the events (how many polls fall inside the confirming window, 2-3 s on the test stack's
    // chains, depends on the machine's speed); the count on every read: current each time, so only ever rising. The
    // confirming event carries the count its scan saw: at least the threshold, and no more than the final count (a
    // scan that comes late on a busy machine crosses both steps at once, each with its event).
    expect(seen.last).toMatchObject({ tx_hash: txHash, amount_received: "7.500000" });
    expect(seen.last.confirmations).toBeGreaterThanOrEqual(REQUIRED[chain]);
    const counts = seen.confirmations.filter((c) => c !== null) as number[];
    expect(counts).toEqual([...counts].sort((a, b) => a - b));
    const events = await paymentEvents(m.sandboxKey, payment.id);
    const confirming = events.find((e) => e.type === "payment.confirming")!.data.object.confirmations;
    expect(confirming).toBeGreaterThanOrEqual(2);
    expect(confirming).toBeLessThanOrEqual(seen.last.confirmations);
    expect(events.map((e) => e.type)).toEqual([
      "payment.awaiting_payment",
      "payment.pending",
      "payment.confirming",
      "payment.confirmed",
    ]);
    expect(await balanceOf(m.sandboxKey, chain)).toEqual({ available: "7.500000", reserved: "0.000000" });
    await new Promise((r) => setTimeout(r, 1_000));
    expect(await balanceOf(m.sandboxKey, chain)).toEqual({ available: "7.500000", reserved: "0.000000" });
    const deposits = await query<{ tx_hash: string; status: string }>(
      getDb(),
      "select tx_hash, status from deposits where payment_id = $1",
      [payment.id],
    );
    expect(deposits).toEqual([{ tx_hash: txHash, status: "credited" }]);
    expect(await checkLedgerConsistency(getDb(), m.id)).toEqual([]);
  }, 60_000);
});

describe("tron and solana: amounts and time", () => {
  it("an underpayment in two transfers waits in awaiting_payment, then completes", async () => {
    await Promise.all(
      (["tron", "solana"] as const).map(async (chain) => {
        const m = await newMerchant();
        const payment = await createPayment(m, { amount: "5.000000", chain });
        const payer = await payers[chain](m.sandboxKey, "5.000000");
        await payer.send(payment.deposit_address, 2_000_000n);
        const partial = await watchPayment(m.id, payment.id, (p) => p.amount_received === "2.000000", 20_000);
        expect(partial.last).toMatchObject({ status: "awaiting_payment", tx_hash: null });
        expect(await balanceOf(m.sandboxKey, chain)).toEqual({ available: "0.000000", reserved: "2.000000" });
        const second = await payer.send(payment.deposit_address, 3_000_000n);
        // deep at once
        await api("POST", `/v1/sandbox/chains/${chain}/mine`, { key: m.sandboxKey, body: { blocks: REQUIRED[chain] } });
        const done = await watchPayment(m.id, payment.id, (p) => p.status === "confirmed", 30_000);
        expect(done.last).toMatchObject({ amount_received: "5.000000", tx_hash: second });
        // Who paid: the sender of the completing transfer, and each transfer on retrieve (refunds start here).
        const first = (await api("GET", `/v1/payments/${payment.id}`, { key: m.sandboxKey })).json;
        expect(first).toMatchObject({ payer_address: payer.address, amount_refunded: "0.000000" });
        expect(first.transfers).toHaveLength(2);
        expect(first.transfers[0]).toMatchObject({ from: payer.address, amount: "2.000000", status: "credited" });
        expect(first.transfers[1]).toEqual({
          from: payer.address,
          amount: "3.000000",
          tx_hash: second,
          status: "credited",
        });
        // The mined blocks may carry it across every threshold in one scan: each transition still happens, in order.
        expect((await paymentEvents(m.sandboxKey, payment.id)).map((e) => e.type)).toEqual([
          "payment.awaiting_payment",
          "payment.pending",
          "payment.confirming",
          "payment.confirmed",
        ]);
        await waitForBalance(m.sandboxKey, chain, { available: "5.000000", reserved: "0.000000" });
      }),
    );
  });

  it("expiry with nothing paid, then a late payment: the payment stays expired, the money is credited", async () => {
    await Promise.all(
      (["tron", "solana"] as const).map(async (chain) => {
        const m = await newMerchant();
        const payment = await createPayment(m, { amount: "4.000000", chain, expires_in: 60 });
        await query(getDb(), "update payments set expires_at = now() + interval '1 second' where id = $1", [
          payment.id,
        ]);
        const expired = await watchPayment(m.id, payment.id, (p) => p.status === "expired", 20_000);
        expect(expired.last).toMatchObject({ amount_received: "0.000000", tx_hash: null });

        const payer = await payers[chain](m.sandboxKey, "4.000000");
        await payer.send(payment.deposit_address, 4_000_000n);
        await watchPayment(m.id, payment.id, (p) => p.amount_received === "4.000000", 20_000);
        await api("POST", `/v1/sandbox/chains/${chain}/mine`, { key: m.sandboxKey, body: { blocks: REQUIRED[chain] } });
        await waitForBalance(m.sandboxKey, chain, { available: "4.000000", reserved: "0.000000" }, 20_000);
        const after = (await api("GET", `/v1/payments/${payment.id}`, { key: m.sandboxKey })).json;
        expect(after.status).toBe("expired");
        expect((await paymentEvents(m.sandboxKey, payment.id)).map((e) => e.type)).toEqual([
          "payment.awaiting_payment",
          "payment.expired",
        ]);
      }),
    );
  });

  it("simulate pays through the sandbox helper; reorg is refused on the emulated chains", async () => {
    const m = await newMerchant();
    for (const chain of ["tron", "solana"] as const) {
      const payment = await createPayment(m, { amount: "1.250000", chain });
      const sim = await api("POST", `/v1/sandbox/payments/${payment.id}/simulate`, { key: m.sandboxKey, body: {} });
      expect(sim.status, sim.text).toBe(200);
      expect(sim.json).toMatchObject({ chain, to: payment.deposit_address, amount: "1.250000" });
      await watchPayment(
        m.id,
        payment.id,
        (p) => p.status === "pending" || p.status === "confirming" || p.status === "confirmed",
        20_000,
      );
      const reorg = await api("POST", `/v1/sandbox/chains/${chain}/reorg`, { key: m.sandboxKey, body: { depth: 1 } });
      expect(reorg.status).toBe(400);
      expect(reorg.json.error.param).toBe("chain");
    }
  });
});
