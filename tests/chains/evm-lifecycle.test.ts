import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { fromUsdtUnits } from "@/lib/chains/chain-adapter";
import { getDb } from "@/lib/platform/db/client";
import { query } from "@/lib/platform/db/query";
import { checkLedgerConsistency } from "@/lib/books/ledger/check-ledger-consistency";
import type { Chain } from "@/lib/chains/chains";
import type { SpawnedWorker } from "@/scripts/lib/spawn-worker";
import { api, newMerchant } from "../helpers/api";
import { createWalletClient, http } from "viem";
import { anvilAccount } from "@/sandbox/evm/anvil-accounts";
import { deploySandboxToken, TOKEN_ABI } from "@/sandbox/evm/sandbox-token";
import { CursorMovedError } from "@/lib/money-in/watch/chain-cursor";
import { ChainMovedError, scanOnce } from "@/lib/money-in/watch/scan-chain";
import { adjustBalance } from "@/lib/books/ledger/adjust-balance";
import { runCli } from "../helpers/run-cli";
import { applyRefundPolicy } from "@/lib/money-out/refunds/apply-refund-policy";
import { scanTarget } from "@/lib/money-in/watch/start-watchers";
import {
  balanceOf,
  fundedWallet,
  paymentEvents,
  sandboxChain,
  startWatcherProcess,
  waitForBalance,
  watchPayment,
} from "../helpers/chains";

// End to end on the run's real anvil chains (0.5 s blocks, 4 confirmations required, confirming from 2),
// watched by a real worker process: every transfer here is a signed transaction from a payer's wallet.
const EVM = ["eth", "bnb", "polygon"] as const satisfies Chain[];
let worker: SpawnedWorker;
beforeAll(async () => {
  worker = await startWatcherProcess(EVM);
});
afterAll(async () => {
  await worker?.stop();
});

const units = (usdt: string) => BigInt(usdt.replace(".", ""));
/**
 * The one refund the refund policy opened for a payment: its job, enqueued by the watcher when the money was
 * credited, is run here (unless another file's jobs worker, sharing the database, ran it first). Never enqueued,
 * nothing would open and this fails.
 */
async function policyRefund(key: string, paymentId: string) {
  const jobs = await query(getDb(), "select 1 from graphile_worker.jobs where key = $1", [
    `apply_refund_policy:${paymentId}`,
  ]);
  if (jobs.length) await applyRefundPolicy(getDb(), paymentId);
  for (let i = 0; ; i++) {
    const refunds = (await api("GET", `/v1/refunds?payment=${paymentId}`, { key })).json.data;
    if (refunds.length || i === 20) {
      expect(refunds).toHaveLength(1);
      return refunds[0];
    }
    await new Promise((r) => setTimeout(r, 500));
  }
}
const createPayment = async (key: string, body: Record<string, unknown>) => {
  const reply = await api("POST", "/v1/payments", { key, body });
  expect(reply.status, reply.text).toBe(200);
  return reply.json;
};

describe.each(["eth", "bnb", "polygon"] as const)("a payment on %s, paid from a viem wallet", (chain) => {
  it("goes pending → confirming → confirmed, confirmations rising, and the balance is credited once", async () => {
    const m = await newMerchant();
    const payment = await createPayment(m.sandboxKey, { amount: "12.345678", chain });
    const payer = await fundedWallet(m.sandboxKey, chain, "20.000000");
    // On bnb the token has 18 decimals: the transfer is 12.345678 USDT plus dust below a micro-USDT.
    const raw = fromUsdtUnits(units("12.345678"), payer.config.decimals) + (payer.config.decimals > 6 ? 999n : 0n);
    const txHash = await payer.send(payment.deposit_address, raw);

    const seen = await watchPayment(m.id, payment.id, (p) => p.status === "confirmed");
    // What a client polling saw, in order (under load a poll can miss a short-lived state: the events below prove
    // each was passed), confirmations never going back.
    const order = ["awaiting_payment", "pending", "confirming", "confirmed"];
    expect(seen.statuses[0]).toBe("awaiting_payment");
    expect(seen.statuses.map((st) => order.indexOf(st))).toEqual(
      [...seen.statuses.map((st) => order.indexOf(st))].sort((a, b) => a - b),
    );
    expect(seen.confirmations, `confirmations seen: ${seen.confirmations}`).toEqual(
      [...seen.confirmations].sort((a, b) => a - b),
    );
    expect(seen.last).toMatchObject({ status: "confirmed", tx_hash: txHash, amount_received: "12.345678" });
    expect(seen.last.confirmations).toBeGreaterThanOrEqual(4);
    expect(Date.parse(seen.last.confirmed_at)).toBeGreaterThan(Date.parse(payment.created_at));

    const events = await paymentEvents(m.sandboxKey, payment.id);
    expect(events.map((e) => e.type)).toEqual([
      "payment.awaiting_payment",
      "payment.pending",
      "payment.confirming",
      "payment.confirmed",
    ]);
    expect(events[1]!.data.object).toMatchObject({ status: "pending", tx_hash: txHash });
    expect(events[3]!.data.object).toMatchObject({ status: "confirmed", confirmations: seen.last.confirmations });

    expect(await balanceOf(m.sandboxKey, chain)).toEqual({ available: "12.345678", reserved: "0.000000" });
    await new Promise((r) => setTimeout(r, 1_500)); // more blocks: nothing is credited again
    expect(await balanceOf(m.sandboxKey, chain)).toEqual({ available: "12.345678", reserved: "0.000000" });
    const [deposit] = await query<{ raw_amount: string; amount_units: string; status: string }>(
      getDb(),
      "select raw_amount::text, amount_units::text, status from deposits where payment_id = $1",
      [payment.id],
    );
    expect(deposit).toEqual({ raw_amount: raw.toString(), amount_units: "12345678", status: "credited" });
    expect(await checkLedgerConsistency(getDb(), m.id)).toEqual([]);
  });
});

describe("amounts that do not match", () => {
  it("an underpayment waits in awaiting_payment (funds reserved) until a second transfer completes it", async () => {
    const m = await newMerchant();
    const payment = await createPayment(m.sandboxKey, { amount: "10.000000", chain: "eth" });
    const payer = await fundedWallet(m.sandboxKey, "eth", "10.000000");
    await payer.send(payment.deposit_address, 4_000_000n);
    const partial = await watchPayment(m.id, payment.id, (p) => p.amount_received === "4.000000");
    expect(partial.last).toMatchObject({ status: "awaiting_payment", tx_hash: null, confirmations: 0 });
    await new Promise((r) => setTimeout(r, 2_500)); // deep enough to be credited, were it complete
    expect((await api("GET", `/v1/payments/${payment.id}`, { key: m.sandboxKey })).json.status).toBe(
      "awaiting_payment",
    );
    expect(await balanceOf(m.sandboxKey, "eth")).toEqual({ available: "0.000000", reserved: "4.000000" });

    const second = await payer.send(payment.deposit_address, 6_000_000n);
    const done = await watchPayment(m.id, payment.id, (p) => p.status === "confirmed");
    expect(done.last).toMatchObject({ amount_received: "10.000000", tx_hash: second });
    expect(await balanceOf(m.sandboxKey, "eth")).toEqual({ available: "10.000000", reserved: "0.000000" });
  });

  it("an overpayment confirms and credits everything that arrived", async () => {
    const m = await newMerchant();
    const set = ["refunds", "policy", "set", "--merchant", m.id, "--mode", "sandbox", "--overpaid-above", "1.000000"];
    expect((await runCli(set, process.env)).code).toBe(0);
    const payment = await createPayment(m.sandboxKey, { amount: "5.000000", chain: "polygon" });
    const payer = await fundedWallet(m.sandboxKey, "polygon", "7.000000");
    await payer.send(payment.deposit_address, 7_000_000n);
    const done = await watchPayment(m.id, payment.id, (p) => p.status === "confirmed");
    expect(done.last).toMatchObject({ amount: "5.000000", amount_received: "7.000000" });
    // The watcher asked, in the confirming transaction, for the merchant's refund policy (refund overpayments
    // above 1 USDT, set before the payment) to look at the excess: a claim refund of the 2 USDT excess, once.
    const refund = await policyRefund(m.sandboxKey, payment.id);
    expect(refund).toMatchObject({
      amount: "2.000000",
      reason: "overpayment",
      destination: "claim",
      status: "requires_action",
    });
    // All 7 were credited and the excess is held for the payer's claim. The policy's job can run as soon as
    // the credit commits, so the balance is read after the refund exists, never in between.
    expect(await balanceOf(m.sandboxKey, "polygon")).toEqual({ available: "5.000000", reserved: "0.000000" });
    expect(await checkLedgerConsistency(getDb(), m.id)).toEqual([]);
    expect(await applyRefundPolicy(getDb(), payment.id)).toEqual([]);
  });
});

describe("expiry and late payments", () => {
  it("expires on time with partial funds, which are credited; " +
    "a later transfer is a late payment, credited too", async () => {
    const m = await newMerchant();
    const late = ["refunds", "policy", "set", "--merchant", m.id, "--mode", "sandbox", "--late-payments", "true"];
    expect((await runCli(late, process.env)).code).toBe(0);
    const payment = await createPayment(m.sandboxKey, { amount: "9.000000", chain: "bnb", expires_in: 60 });
    const payer = await fundedWallet(m.sandboxKey, "bnb", "20.000000");
    await payer.send(payment.deposit_address, fromUsdtUnits(2_000_000n, 18));
    await watchPayment(m.id, payment.id, (p) => p.amount_received === "2.000000");
    // The shortest TTL the API accepts is 60 s; the test moves expires_at closer instead of waiting.
    await query(getDb(), "update payments set expires_at = now() + interval '1 second' where id = $1", [payment.id]);
    const expired = await watchPayment(m.id, payment.id, (p) => p.status === "expired");
    expect(expired.last).toMatchObject({ status: "expired", amount_received: "2.000000", tx_hash: null });
    expect((await paymentEvents(m.sandboxKey, payment.id)).map((e) => e.type)).toEqual([
      "payment.awaiting_payment",
      "payment.expired",
    ]);
    // Money that arrived is never lost: the partial funds are credited once deep enough.
    await waitForBalance(m.sandboxKey, "bnb", { available: "2.000000", reserved: "0.000000" });

    await payer.send(payment.deposit_address, fromUsdtUnits(9_000_000n, 18));
    // Credited at depth: 6-8 s on a quiet machine, more than 15 beside other files' chain work in CI.
    const credited = await watchPayment(
      m.id,
      payment.id,
      (p) => p.transfers.length === 2 && p.transfers.every((t: { status: string }) => t.status === "credited"),
      60_000,
    );
    expect(credited.last).toMatchObject({ status: "expired", amount_received: "11.000000" });
    // The merchant refunds late payments: what arrived after expiry (9 USDT, not the 2 before) is offered back
    // and held out of the balance for the payer's claim. The policy's job can run as soon as the credit
    // commits, so the 11 credited may show in the balance only for a moment: it is read after the refund.
    const refund = await policyRefund(m.sandboxKey, payment.id);
    expect(refund).toMatchObject({ amount: "9.000000", reason: "late_payment", status: "requires_action" });
    expect(await balanceOf(m.sandboxKey, "bnb")).toEqual({ available: "2.000000", reserved: "0.000000" });
    expect(await checkLedgerConsistency(getDb(), m.id)).toEqual([]);
    expect((await paymentEvents(m.sandboxKey, payment.id)).map((e) => e.type)).toEqual([
      "payment.awaiting_payment",
      "payment.expired",
    ]);
    // Five waits on the chain and the worker in a row: 25-30 s on a quiet machine.
  }, 150_000);

  it("a payment with no network chosen expires by its job at expires_at", async () => {
    const m = await newMerchant();
    const payment = await createPayment(m.sandboxKey, { amount: "1.000000" });
    await query(getDb(), "update payments set expires_at = now() - interval '1 second' where id = $1", [payment.id]);
    const { expirePaymentIfDue } = await import("@/lib/money-in/payments/expire-payment");
    expect(await expirePaymentIfDue(getDb(), payment.id)).toBe("expired");
    expect(await expirePaymentIfDue(getDb(), payment.id)).toBe("closed");
    // The job that calls it was enqueued with the payment, for the original expires_at (30 minutes out).
    const [job] = await query<{ run_at: Date }>(getDb(), "select run_at from graphile_worker.jobs where key = $1", [
      `expire_payment:${payment.id}`,
    ]);
    expect(Math.abs(job!.run_at.getTime() - Date.parse(payment.expires_at))).toBeLessThan(1000);
    expect((await paymentEvents(m.sandboxKey, payment.id)).map((e) => e.type)).toEqual([
      "payment.awaiting_payment",
      "payment.expired",
    ]);
  });
});

describe("transfers that are not this payment's USDT", () => {
  it(
    "another token sent to a deposit address is not counted; " +
      "USDT on the wrong EVM network is credited to that network's balance",
    async () => {
      const m = await newMerchant();
      const payment = await createPayment(m.sandboxKey, { amount: "3.000000", chain: "eth" });
      const eth = await fundedWallet(m.sandboxKey, "eth", "1.000000");
      const other = await deploySandboxToken(eth.config.rpcUrl, "standard", 6);
      const owner = createWalletClient({
        account: anvilAccount(),
        transport: http(eth.config.rpcUrl),
      });
      const otherTx = await owner.writeContract({
        chain: null,
        address: other,
        abi: TOKEN_ABI.standard,
        functionName: "mint",
        args: [payment.deposit_address, 3_000_000n],
      });
      await eth.client.waitForTransactionReceipt({ hash: otherTx });

      const bnb = await fundedWallet(m.sandboxKey, "bnb", "3.000000");
      await bnb.send(payment.deposit_address, fromUsdtUnits(3_000_000n, 18));
      await waitForBalance(m.sandboxKey, "bnb", { available: "3.000000", reserved: "0.000000" });
      const after = (await api("GET", `/v1/payments/${payment.id}`, { key: m.sandboxKey })).json;
      expect(after).toMatchObject({ status: "awaiting_payment", amount_received: "0.000000", tx_hash: null });
      const deposits = await query<{ chain: string; kind: string; status: string }>(
        getDb(),
        "select chain, kind, status from deposits where payment_id = $1",
        [payment.id],
      );
      expect(deposits).toEqual([{ chain: "bnb", kind: "wrong_network", status: "credited" }]);
    },
  );
});

/**
 * Runs `steps` with a watcher whose required depth is out of reach (SANDBOX_CONFIRMATIONS), then brings the
 * file's usual one back. A reorg below the depth must come before the 4th confirmation: ~1.5 s at the suite's
 * 0.5 s blocks, less than a loaded machine's watcher poll; anvil cannot resume sub-second mining once paused.
 */
async function withDepthOutOfReach<T>(steps: () => Promise<T>): Promise<T> {
  await worker.stop();
  worker = await startWatcherProcess(EVM, { SANDBOX_CONFIRMATIONS: "1000" });
  try {
    return await steps();
  } finally {
    await worker.stop();
    worker = await startWatcherProcess(EVM);
  }
}

/**
 * Replaces every block from the transfer's up with empty ones (however deep it is by now). The depth is counted
 * from the head read here, and the chain mines every 0.5 s: a block mined before the reorg runs leaves the
 * transfer's block below it, so the transfer is looked for again and the reorg repeated until it is gone.
 */
async function reorgOut(key: string, payer: Awaited<ReturnType<typeof fundedWallet>>, hash: `0x${string}`) {
  const { blockNumber } = await payer.client.waitForTransactionReceipt({ hash });
  const chain = payer.config.chain;
  for (let tries = 0; tries < 5; tries++) {
    const depth = Number((await payer.client.getBlockNumber()) - blockNumber) + 1;
    const reorg = await api("POST", `/v1/sandbox/chains/${chain}/reorg`, { key, body: { depth } });
    expect(reorg.status, reorg.text).toBe(200);
    if (!(await payer.client.getTransactionReceipt({ hash }).catch(() => null))) return;
  }
  throw new Error(`the transfer ${hash} was still mined after five reorgs`);
}

describe("reorganizations", () => {
  it("a reorg below the required depth removes an unconfirmed deposit; a new transfer then confirms", async () => {
    const m = await newMerchant();
    const payment = await createPayment(m.sandboxKey, { amount: "3.000000", chain: "eth" });
    const payer = await fundedWallet(m.sandboxKey, "eth", "6.000000");
    const first = await withDepthOutOfReach(async () => {
      const hash = await payer.send(payment.deposit_address, 3_000_000n);
      await watchPayment(m.id, payment.id, (p) => p.status === "pending" || p.status === "confirming");
      await reorgOut(m.sandboxKey, payer, hash);
      return hash;
    });
    expect(await payer.client.getTransactionReceipt({ hash: first }).catch(() => null)).toBeNull();

    const back = await watchPayment(m.id, payment.id, (p) => p.status === "awaiting_payment");
    expect(back.last).toMatchObject({ amount_received: "0.000000", tx_hash: null, confirmations: 0 });
    expect(await balanceOf(m.sandboxKey, "eth")).toEqual({ available: "0.000000", reserved: "0.000000" });
    const [orphan] = await query<{ status: string }>(getDb(), "select status from deposits where payment_id = $1", [
      payment.id,
    ]);
    expect(orphan!.status).toBe("orphaned");
    const types = (await paymentEvents(m.sandboxKey, payment.id)).map((e) => e.type);
    expect(types[0]).toBe("payment.awaiting_payment");
    expect(types.at(-1)).toBe("payment.awaiting_payment");
    expect(types).toContain("payment.pending");

    const second = await payer.send(payment.deposit_address, 3_000_000n);
    const done = await watchPayment(m.id, payment.id, (p) => p.status === "confirmed");
    expect(done.last).toMatchObject({ tx_hash: second, amount_received: "3.000000" });
    expect(await balanceOf(m.sandboxKey, "eth")).toEqual({ available: "3.000000", reserved: "0.000000" });
    expect(await checkLedgerConsistency(getDb(), m.id)).toEqual([]);
  }, 90_000); // two watcher restarts: a hang detector, not a budget
});

describe("reorganizations after expiry", () => {
  it("a reorg that removes the completing transfer after expires_at " +
    "fails the payment and reverses the funds", async () => {
    const m = await newMerchant();
    const payment = await createPayment(m.sandboxKey, { amount: "2.000000", chain: "polygon" });
    const payer = await fundedWallet(m.sandboxKey, "polygon", "2.000000");
    await withDepthOutOfReach(async () => {
      const hash = await payer.send(payment.deposit_address, 2_000_000n);
      await watchPayment(m.id, payment.id, (p) => p.status === "pending" || p.status === "confirming");
      // The time to pay runs out while the transfer waits for its confirmations.
      await query(getDb(), "update payments set expires_at = now() - interval '1 second' where id = $1", [payment.id]);
      await reorgOut(m.sandboxKey, payer, hash);
    });

    const failed = await watchPayment(m.id, payment.id, (p) => p.status === "failed");
    expect(failed.last).toMatchObject({ amount_received: "0.000000", tx_hash: null, confirmations: 0 });
    expect(await balanceOf(m.sandboxKey, "polygon")).toEqual({ available: "0.000000", reserved: "0.000000" });
    const types = (await paymentEvents(m.sandboxKey, payment.id)).map((e) => e.type);
    expect(types.at(-1)).toBe("payment.failed");
    expect(types).not.toContain("payment.expired");
    expect(await checkLedgerConsistency(getDb(), m.id)).toEqual([]);
  }, 90_000); // two watcher restarts: a hang detector, not a budget
});

describe("reorganizations deeper than the required confirmations", () => {
  it("reverse a confirmed payment's credit into available and a receivable, with an alert and a record; " +
    "the same transaction mined again credits once and settles it", async () => {
    const m = await newMerchant();
    const payment = await createPayment(m.sandboxKey, { amount: "5.000000", chain: "eth" });
    const payer = await fundedWallet(m.sandboxKey, "eth", "5.000000");
    const signed = await payer.sign(payment.deposit_address, 5_000_000n);
    await new Promise((r) => setTimeout(r, 2_000)); // the faucet's mint is now deeper than the reorg
    // Scanned in this process (the worker stopped) to see the watcher's alert on its stderr.
    await worker.stop();
    const alerts: string[] = [];
    const stderr = vi.spyOn(process.stderr, "write").mockImplementation((line) => {
      if (String(line).includes('"level":"error"')) alerts.push(String(line));
      return true;
    });
    try {
      const target = scanTarget((await sandboxChain("eth"))!);
      const scanUntil = async (done: () => Promise<boolean>) => {
        for (let i = 0; i < 300 && !(await done()); i++) {
          await scanOnce(getDb(), target).catch((err) => {
            if (!(err instanceof CursorMovedError || err instanceof ChainMovedError)) throw err;
          });
          await new Promise((r) => setTimeout(r, 50));
        }
        expect(await done()).toBe(true);
      };
      const paymentNow = async () => (await api("GET", `/v1/payments/${payment.id}`, { key: m.sandboxKey })).json;
      const deposits = () =>
        query<{ id: string; status: string; block_number: string }>(
          getDb(),
          "select id, status, block_number::text from deposits where payment_id = $1",
          [payment.id],
        );
      const reversals = () =>
        query<{
          amount: string;
          taken: string;
          receivable: string;
          block: string;
          settled_at: Date | null;
          settled_block: string | null;
        }>(
          getDb(),
          `select amount_units::text as amount, taken_from_available_units::text as taken,
                  receivable_units::text as receivable,
                  block_number::text as block, settled_at, settled_block_number::text as settled_block
           from reorg_reversals where payment_id = $1`,
          [payment.id],
        );

      const txHash = await payer.client.sendRawTransaction({ serializedTransaction: signed });
      await scanUntil(async () => (await paymentNow()).status === "confirmed");
      const mined = await payer.client.getTransactionReceipt({ hash: txHash });
      // The merchant has since spent 3 of the 5 (a debit standing in for a payout): 2 are left to take back.
      await adjustBalance(getDb(), {
        merchantId: m.id,
        mode: "sandbox",
        chain: "eth",
        amount: -3_000_000n,
        reason: "spent",
      });
      expect(await balanceOf(m.sandboxKey, "eth")).toEqual({ available: "2.000000", reserved: "0.000000" });

      const head = await payer.client.getBlockNumber();
      const depth = Number(head - mined.blockNumber) + 2; // deeper than the 4 confirmations, past the transfer
      expect(depth).toBeGreaterThan(4);
      const reorg = await api("POST", "/v1/sandbox/chains/eth/reorg", { key: m.sandboxKey, body: { depth } });
      expect(reorg.status, reorg.text).toBe(200);
      expect(await payer.client.getTransactionReceipt({ hash: txHash }).catch(() => null)).toBeNull();
      await scanUntil(async () => (await reversals()).length > 0);

      const [reversal] = await reversals();
      expect(reversal).toMatchObject({ amount: "5000000", taken: "2000000", receivable: "3000000", settled_at: null });
      expect(reversal!.block).toBe(mined.blockNumber.toString());
      expect(await balanceOf(m.sandboxKey, "eth")).toEqual({ available: "0.000000", reserved: "0.000000" });
      expect((await deposits()).map((d) => d.status)).toEqual(["orphaned"]);
      expect(await paymentNow()).toMatchObject({ status: "confirmed", tx_hash: txHash, amount_received: "0.000000" });
      expect((await paymentEvents(m.sandboxKey, payment.id)).map((e) => e.type)).toEqual([
        "payment.awaiting_payment",
        "payment.pending",
        "payment.confirming",
        "payment.confirmed",
      ]);
      const alert = alerts.map((a) => JSON.parse(a)).find((a) => a.payment === payment.id);
      expect(alert).toMatchObject({ level: "error", merchant: m.id, amount: "5.000000", receivable: "3.000000" });
      expect(await checkLedgerConsistency(getDb(), m.id)).toEqual([]);
      const listed = await runCli(["reorgs", "list", "--merchant", m.id, "--open", "--json"], process.env);
      expect(listed.code, listed.stderr).toBe(0);
      expect(JSON.parse(listed.stdout).data).toEqual([
        expect.objectContaining({
          payment: payment.id,
          amount: "5.000000",
          taken_from_available: "2.000000",
          receivable: "3.000000",
          settled_at: null,
        }),
      ]);

      // The same signed transaction mined again, in another block: one deposit, credited once.
      expect(await payer.client.sendRawTransaction({ serializedTransaction: signed })).toBe(txHash);
      await scanUntil(async () => (await reversals())[0]!.settled_at !== null);
      const remined = await payer.client.getTransactionReceipt({ hash: txHash });
      expect(await deposits()).toEqual([
        expect.objectContaining({ status: "credited", block_number: remined.blockNumber.toString() }),
      ]);
      expect((await reversals())[0]!.settled_block).toBe(remined.blockNumber.toString());
      expect(await balanceOf(m.sandboxKey, "eth")).toEqual({ available: "2.000000", reserved: "0.000000" });
      expect(await paymentNow()).toMatchObject({ status: "confirmed", amount_received: "5.000000" });
      await scanUntil(async () => Number(await payer.client.getBlockNumber()) > Number(remined.blockNumber) + 6);
      expect(await balanceOf(m.sandboxKey, "eth")).toEqual({ available: "2.000000", reserved: "0.000000" });
      expect(await deposits()).toHaveLength(1);
      expect(await checkLedgerConsistency(getDb(), m.id)).toEqual([]);
    } finally {
      stderr.mockRestore();
      worker = await startWatcherProcess(EVM);
    }
  }, 90_000);
});

describe("workers that crash or run twice", () => {
  it("a watcher killed mid-way loses nothing: its successor backfills and credits exactly once", async () => {
    const m = await newMerchant();
    const payment = await createPayment(m.sandboxKey, { amount: "4.000000", chain: "polygon" });
    const payer = await fundedWallet(m.sandboxKey, "polygon", "4.000000");
    await payer.send(payment.deposit_address, 4_000_000n);
    await watchPayment(m.id, payment.id, (p) => p.status === "pending" || p.status === "confirming");
    await worker.kill(); // SIGKILL: no cleanup, its leadership ends with its connection
    await new Promise((r) => setTimeout(r, 3_000)); // six blocks go by unwatched
    const stalled = (await api("GET", `/v1/payments/${payment.id}`, { key: m.sandboxKey })).json;
    expect(["pending", "confirming"]).toContain(stalled.status);

    worker = await startWatcherProcess(EVM);
    const done = await watchPayment(m.id, payment.id, (p) => p.status === "confirmed");
    expect(done.last.confirmations).toBeGreaterThanOrEqual(4);
    expect(await balanceOf(m.sandboxKey, "polygon")).toEqual({ available: "4.000000", reserved: "0.000000" });
    const types = (await paymentEvents(m.sandboxKey, payment.id)).map((e) => e.type);
    expect(types).toEqual(["payment.awaiting_payment", "payment.pending", "payment.confirming", "payment.confirmed"]);
    expect(await checkLedgerConsistency(getDb(), m.id)).toEqual([]);
  });

  it("two worker processes at once credit nothing twice", async () => {
    const second = await startWatcherProcess(EVM);
    try {
      const m = await newMerchant();
      const chains = ["eth", "bnb", "polygon", "eth", "bnb", "polygon"] as const;
      const payments = await Promise.all(
        chains.map((chain, i) => createPayment(m.sandboxKey, { amount: `${i + 1}.000000`, chain })),
      );
      // Paid through the sandbox helper: a real transfer from a fresh sandbox payer wallet.
      const simulated = await Promise.all(
        payments.map((p) => api("POST", `/v1/sandbox/payments/${p.id}/simulate`, { key: m.sandboxKey, body: {} })),
      );
      for (const s of simulated) expect(s.status, s.text).toBe(200);
      await Promise.all(payments.map((p) => watchPayment(m.id, p.id, (x) => x.status === "confirmed")));
      for (const p of payments) {
        expect((await paymentEvents(m.sandboxKey, p.id)).map((e) => e.type)).toEqual([
          "payment.awaiting_payment",
          "payment.pending",
          "payment.confirming",
          "payment.confirmed",
        ]);
      }
      expect(await balanceOf(m.sandboxKey, "eth")).toEqual({ available: "5.000000", reserved: "0.000000" });
      expect(await balanceOf(m.sandboxKey, "bnb")).toEqual({ available: "7.000000", reserved: "0.000000" });
      expect(await balanceOf(m.sandboxKey, "polygon")).toEqual({ available: "9.000000", reserved: "0.000000" });
      expect(await checkLedgerConsistency(getDb(), m.id)).toEqual([]);
    } finally {
      await second.stop();
    }
  });

  it(
    "scans racing without any leader lock still apply each block " + "once (the cursor check refuses the losers)",
    async () => {
      await worker.stop();
      try {
        const m = await newMerchant();
        const payment = await createPayment(m.sandboxKey, { amount: "2.500000", chain: "bnb" });
        const payer = await fundedWallet(m.sandboxKey, "bnb", "2.500000");
        await payer.send(payment.deposit_address, fromUsdtUnits(2_500_000n, 18));
        const target = scanTarget((await sandboxChain("bnb"))!);
        let refused = 0;
        const race = async () => {
          for (let i = 0; i < 200; i++) {
            const [row] = await query<{ status: string }>(getDb(), "select status from payments where id = $1", [
              payment.id,
            ]);
            if (row!.status === "confirmed") return;
            await scanOnce(getDb(), target).catch((err) => {
              if (!(err instanceof CursorMovedError)) throw err;
              refused += 1;
            });
            await new Promise((r) => setTimeout(r, 20));
          }
        };
        await Promise.all([race(), race(), race(), race()]);
        expect(refused).toBeGreaterThan(0);
        expect(await balanceOf(m.sandboxKey, "bnb")).toEqual({ available: "2.500000", reserved: "0.000000" });
        const [count] = await query<{ n: string }>(
          getDb(),
          "select count(*)::text as n from deposits where payment_id = $1",
          [payment.id],
        );
        expect(count!.n).toBe("1");
        expect(await checkLedgerConsistency(getDb(), m.id)).toEqual([]);
      } finally {
        worker = await startWatcherProcess(EVM);
      }
    },
  );
});
