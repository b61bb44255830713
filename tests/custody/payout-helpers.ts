import path from "node:path";
import { afterAll, beforeAll, expect } from "vitest";
import type { Chain } from "@/lib/chains/chains";
import { resetConfig } from "@/lib/platform/config/env";
import { getDb } from "@/lib/platform/db/client";
import { query } from "@/lib/platform/db/query";
import { checkLedgerConsistency } from "@/lib/books/ledger/check-ledger-consistency";
import { formatAmount } from "@/lib/kernel/amount";
import { CHAIN_SPECS } from "@/lib/chains/chain-registry";
import { parseUnits } from "viem";
import { PAYOUT_COLUMNS, toPayoutRow } from "@/lib/money-out/payouts/payout-row";
import { serializePayout } from "@/lib/money-out/payouts/serialize-payout";
import { createWebhookEndpoint } from "@/lib/notify/webhooks/create-webhook-endpoint";
import { spawnWorker, type SpawnedWorker } from "@/scripts/lib/spawn-worker";
import { api, newMerchant, type TestMerchant } from "../helpers/api";
import { balanceOf, startWatcherProcess } from "../helpers/chains";
import { startReceiver, verifySignature } from "../helpers/webhook-receiver";
import type { CandidateRow } from "@/lib/money-out/outbound/outbound-row";
import { candidates, crashWorkerAt, outbound, startOutboundWorker, waitFor } from "./outbound-helpers";
import { paidPayment } from "./payment-helpers";

const root = path.resolve(import.meta.dirname, "../..");
const FINAL = ["confirmed", "failed", "blocked"];
/** An API amount ("37.654322") in base units. */
export const units = (amount: string) => BigInt(amount.replace(".", ""));

/**
 * A jobs worker (execute_payout, webhook deliveries). Its sweep cron stays out of the other files' chains: a
 * threshold nothing reaches, so only a payout's need for liquidity sweeps. Every file starts it the same way,
 * since any file's worker may run any file's jobs.
 */
export function startJobsWorker(): Promise<SpawnedWorker> {
  return spawnWorker(root, {
    WORKER_ROLES: "jobs",
    LOG_LEVEL: process.env.OUTBOUND_TEST_LOG ?? "error",
    SANDBOX_SWEEP_THRESHOLD: "1000000",
    WEBHOOK_RETRY_SCALE: "0.1",
    WEBHOOKS_ALLOW_PRIVATE_URLS: "true",
    WORKER_CONCURRENCY: "5", // two files' workers, watchers and web servers share the database's connections
    // Any file's worker may take any file's jobs, and a file's worker stops with its file: jobs it held when it went
    // are freed after this many seconds (tests/FLAKES.md), not the 60 s a payout test's wait would race.
    JOB_LOCK_RECOVERY_SECONDS: "10",
    // eth's payouts go out in batches (reconcile.test.ts owns eth and tests them); the other chains' one by one.
    ETH_PAYOUT_STRATEGY: "batch",
  });
}

/** A payout as GET /v1/payouts/:id serializes it, read from the database (the endpoint allows 10 calls a minute). */
export async function payoutNow(id: string): Promise<Record<string, any>> {
  const [row] = await query(getDb(), `select ${PAYOUT_COLUMNS} from payouts where id = $1`, [id]);
  return serializePayout(toPayoutRow(row!)) as Record<string, any>;
}

/** Waits for `status`, failing at once if the payout ends in another final state. Records the states seen. */
export function waitForPayout(id: string, status: string, timeoutMs = 90_000, seen?: Set<string>) {
  return waitFor(
    `${id} to be ${status}`,
    async () => {
      const now = await payoutNow(id);
      seen?.add(now.status);
      if (FINAL.includes(now.status) && now.status !== status)
        throw new Error(`${id} ended ${now.status}: ${JSON.stringify(now)}`);
      return now.status === status ? now : null;
    },
    timeoutMs,
  );
}

/**
 * The setting payout tests share: a merchant paid `funded` on `chain` (by the file's watcher, or with `watch` a
 * watcher of its own), a jobs worker, and a webhook endpoint (a loopback receiver) for all of the merchant's
 * sandbox events.
 */
export function usePayoutMerchant(chain: Chain, funded: string, opts: { watch?: boolean } = {}) {
  const ctx = {} as {
    m: TestMerchant;
    jobs: SpawnedWorker;
    watcher?: SpawnedWorker;
    receiver: Awaited<ReturnType<typeof startReceiver>>;
    secret: string;
  };
  beforeAll(async () => {
    process.env.WEBHOOKS_ALLOW_PRIVATE_URLS = "true"; // sandbox endpoints may be the test's loopback receiver
    resetConfig();
    ctx.receiver = await startReceiver();
    [ctx.jobs, ctx.m, ctx.watcher] = await Promise.all([
      startJobsWorker(),
      newMerchant(`Payouts on ${chain}`),
      opts.watch ? startWatcherProcess([chain]) : undefined,
    ]);
    ({ secret: ctx.secret } = await createWebhookEndpoint(
      getDb(),
      { merchantId: ctx.m.id, mode: "sandbox" },
      { url: ctx.receiver.url("/payouts"), events: [] },
    ));
    await paidPayment(ctx.m, chain, funded);
  }, 120_000);
  afterAll(async () => {
    await ctx.receiver?.close();
    await Promise.all([ctx.jobs?.stop(), ctx.watcher?.stop()]);
  });
  return {
    get merchant() {
      return ctx.m;
    },
    createPayout: (body: Record<string, unknown>) =>
      api("POST", "/v1/payouts", { key: ctx.m.sandboxKey, body: { chain, ...body } }),
    /** The signed delivery of `type` for payout `id`, once it arrives; its signature is checked. */
    webhook: async (type: string, id: string) => {
      const hit = await waitFor(`${type} for ${id}`, async () =>
        ctx.receiver.at("/payouts").find((r) => {
          const event = JSON.parse(r.body);
          return event.type === type && event.data.object.id === id;
        }),
      );
      expect(verifySignature(hit.headers["service-signature"] as string, hit.body, ctx.secret)).toBe(true);
      return JSON.parse(hit.body) as { type: string; data: { object: Record<string, any> } };
    },
  };
}

export type PayoutSetting = ReturnType<typeof usePayoutMerchant>;

/** What a recipient's chain shows: a fresh address and its USDT in the token's own base units. */
export interface Recipients {
  freshAddress: () => string | Promise<string>;
  tokenOf: (address: string) => Promise<bigint>;
  /** The token's on-chain decimals (bnb's sandbox USDT has 18; the API always speaks 6). */
  decimals: number;
}

/**
 * The journey every chain must pass: a payout of part of the balance goes pending → processing → confirmed,
 * the recipient's balance rises by exactly the amount, `available` falls by exactly it, and a signed
 * payout.confirmed carrying the metadata arrives.
 */
export async function expectPayoutConfirms(s: PayoutSetting, chain: Chain, recipients: Recipients) {
  const to = await recipients.freshAddress();
  const before = await balanceOf(s.merchant.sandboxKey, chain);
  const created = await s.createPayout({ to_address: to, amount: "12.345678", metadata: { order: `A-${chain}` } });
  expect(created.status, created.text).toBe(200);
  expect(created.json).toMatchObject({ status: "pending", tx_hash: null, amount: "12.345678" });
  expect(created.json).not.toHaveProperty("confirmed_at"); // present when confirmed
  const after = await balanceOf(s.merchant.sandboxKey, chain);
  expect(after.available).toBe(formatAmount(units(before.available) - 12_345_678n));
  const seen = new Set<string>();
  const done = await waitForPayout(created.json.id, "confirmed", 120_000, seen);
  expect([...seen].filter((st) => st !== "pending" && st !== "confirmed")).toEqual(["processing"]);
  expect(done.tx_hash).toBeTruthy();
  expect(done.confirmations).toBeGreaterThan(0);
  expect(done.confirmed_at).toBeTruthy();
  expect(await recipients.tokenOf(to)).toBe(12_345_678n * 10n ** BigInt(recipients.decimals - 6));
  expect(await balanceOf(s.merchant.sandboxKey, chain)).toEqual(after);
  const event = await s.webhook("payout.confirmed", created.json.id);
  expect(event.data.object).toMatchObject({
    id: created.json.id,
    status: "confirmed",
    tx_hash: done.tx_hash,
    metadata: { order: `A-${chain}` },
  });
  const fee = await expectOwnCost(created.json.id, s.merchant.id);
  await expectInStatement(s, chain, created.json, fee);
  expect(await checkLedgerConsistency(getDb(), s.merchant.id)).toEqual([]);
  return done;
}

/**
 * The statement of the payout's chain from its creation to now lists it with its debit, and counts its network
 * fee among the payouts' costs (docs/API.md#statements).
 */
async function expectInStatement(
  s: PayoutSetting,
  chain: Chain,
  payout: { id: string; created_at: string },
  fee: bigint,
) {
  const to = new Date(Date.now() + 60_000).toISOString();
  const reply = await api(
    "GET",
    `/v1/reports/statement?chain=${chain}&from=${encodeURIComponent(payout.created_at)}&to=${encodeURIComponent(to)}`,
    { key: s.merchant.sandboxKey },
  );
  expect(reply.status, reply.text).toBe(200);
  const [statement] = reply.json.chains;
  const listed = statement.payouts.find((p: { id: string }) => p.id === payout.id);
  expect(listed).toMatchObject({
    status: "confirmed",
    balance_transactions: [{ type: "payout", amount: "-12.345678" }],
  });
  const costs = statement.network_costs.payouts;
  expect(costs.count).toBeGreaterThanOrEqual(1);
  expect(parseUnits(costs.total, CHAIN_SPECS[chain].native.decimals)).toBeGreaterThanOrEqual(fee);
}

/** A payout bears its transfer's fee (and rent), exactly, whether the transfer confirmed or reverted (`cli costs`). */
async function expectOwnCost(payoutId: string, merchantId: string) {
  // Solana: with the rent of the recipient's new token account, which leaves the service for good.
  // Its own transfer, or (eth, batched) the batch it was the one member of.
  const [transfer] = await query<{ id: string; fee: string }>(
    getDb(),
    `select o.id, (o.fee_native + coalesce(o.rent_paid_native, 0))::text as fee
       from outbound_transactions o join payouts p on p.outbound_id = o.id where p.id = $1`,
    [payoutId],
  );
  expect(BigInt(transfer!.fee)).toBeGreaterThan(0n);
  const costs = await query(
    getDb(),
    `select subject_type, subject_id, merchant_id, sum(fee_native)::text as fee from outbound_costs
      where outbound_id = $1 group by 1, 2, 3`,
    [transfer!.id],
  );
  expect(costs).toEqual([
    { subject_type: "payout", subject_id: payoutId, merchant_id: merchantId, fee: transfer!.fee },
  ]);
  return BigInt(transfer!.fee);
}

/** A fresh address frozen through the sandbox API, the merchant's balance then, and a 1 USDT payout to it. */
async function payoutToFrozenAddress(s: PayoutSetting, chain: Chain, recipients: Recipients) {
  const to = await recipients.freshAddress();
  const frozen = await api("POST", `/v1/sandbox/chains/${chain}/freeze`, {
    key: s.merchant.sandboxKey,
    body: { address: to },
  });
  expect(frozen.status, frozen.text).toBe(200);
  const before = await balanceOf(s.merchant.sandboxKey, chain);
  const created = await s.createPayout({ to_address: to, amount: "1.000000" });
  expect(created.status, created.text).toBe(200);
  return { to, before, created };
}

/**
 * A payout to an address the token refuses (frozen through the sandbox API, on a chain whose USDT has no freeze the
 * service reads: bnb, polygon) is signed and lands, but reverts:
 * `failed` with transfer_reverted, the amount back in `available`, payout.failed delivered, nothing received.
 */
export async function expectFrozenPayoutFails(s: PayoutSetting, chain: Chain, recipients: Recipients) {
  const { to, before, created } = await payoutToFrozenAddress(s, chain, recipients);
  const failed = await waitForPayout(created.json.id, "failed", 120_000);
  expect(failed).toMatchObject({ failure_code: "transfer_reverted" });
  expect(failed).not.toHaveProperty("confirmed_at");
  expect(failed.tx_hash).toBeTruthy();
  expect(await balanceOf(s.merchant.sandboxKey, chain)).toEqual(before);
  expect(await recipients.tokenOf(to)).toBe(0n);
  expect((await s.webhook("payout.failed", created.json.id)).data.object).toMatchObject({
    status: "failed",
    failure_code: "transfer_reverted",
  });
  await expectOwnCost(created.json.id, s.merchant.id);
  expect(await checkLedgerConsistency(getDb(), s.merchant.id)).toEqual([]);
}

/**
 * A payout to an address USDT's issuer has frozen (frozen through the sandbox API; eth, tron and solana read the
 * freeze): `blocked` with destination_frozen before anything is signed, so no fee is spent: no transfer queued,
 * no cost booked, the amount back in `available`, payout.blocked delivered, nothing received.
 */
export async function expectFrozenPayoutBlocked(s: PayoutSetting, chain: Chain, recipients: Recipients) {
  const { to, before, created } = await payoutToFrozenAddress(s, chain, recipients);
  const blocked = await waitForPayout(created.json.id, "blocked", 60_000);
  expect(blocked).toMatchObject({
    failure_code: "destination_frozen",
    failure_message: "USDT's issuer has frozen the destination: a transfer to it would fail, so none was sent.",
    tx_hash: null,
  });
  expect(await balanceOf(s.merchant.sandboxKey, chain)).toEqual(before);
  expect((await s.webhook("payout.blocked", created.json.id)).data.object).toMatchObject({
    status: "blocked",
    failure_code: "destination_frozen",
  });
  const [spent] = await query<{ transfers: string; costs: string }>(
    getDb(),
    `select (select count(*) from outbound_transactions where cause_id = $1)::text as transfers,
            (select count(*) from outbound_costs where subject_id = $1)::text as costs`,
    [created.json.id],
  );
  expect(spent).toEqual({ transfers: "0", costs: "0" });
  expect(await recipients.tokenOf(to)).toBe(0n);
  expect(await checkLedgerConsistency(getDb(), s.merchant.id)).toEqual([]);
}

/** How a family's test makes a signed candidate provably unable to land, and shows that it cannot. */
export interface Expiry {
  /** Moves the chain past the candidate's validity (Tron's expiration, Solana's blockhash, an EVM nonce used). */
  expire: (candidate: CandidateRow) => Promise<void>;
  /** True when the chain refuses the candidate's stored bytes: they can never land. */
  refused: (candidate: CandidateRow) => Promise<boolean>;
}

/**
 * A payout whose transfer never lands, however often it is re-signed: each candidate is signed and the worker
 * killed before it is broadcast, then the chain moves past the candidate's validity. Once the re-signs are
 * used up the transfer is given up: the payout fails (`transfer_expired`) with its amount back in `available`
 * exactly once, one payout.failed, no transfer on chain, and every candidate's bytes refused by the chain:
 * nothing left that could land after the refund. Returns the outbound worker it leaves running.
 */
export async function expectExhaustedPayoutFails(
  s: PayoutSetting,
  chain: Chain,
  recipients: Recipients,
  expiry: Expiry,
  running: SpawnedWorker | undefined,
  maxResigns = 1,
): Promise<SpawnedWorker> {
  const env = { OUTBOUND_MAX_RESIGNS: String(maxResigns) };
  const to = await recipients.freshAddress();
  const before = await balanceOf(s.merchant.sandboxKey, chain);
  let payoutId = "";
  await crashWorkerAt(
    chain,
    running,
    "after_sign",
    async () => {
      const created = await s.createPayout({ to_address: to, amount: "1.500000" });
      expect(created.status, created.text).toBe(200);
      payoutId = created.json.id;
      return created.json;
    },
    env,
  );
  const intentId = await waitFor("the payout's transfer", async () => {
    const [row] = await query<{ outbound_id: string | null }>(
      getDb(),
      "select outbound_id from payouts where id = $1",
      [payoutId],
    );
    return row?.outbound_id;
  });
  const signed = async (n: number) => {
    const all = await waitFor(`${n} signed candidates`, async () => {
      const rows = await candidates(intentId);
      return rows.length === n && rows;
    });
    return all[n - 1]!;
  };
  let latest = await signed(1);
  for (let resign = 1; resign <= maxResigns; resign++) {
    await expiry.expire(latest);
    // Re-signed (the old candidate provably cannot land), and killed again before the new one is sent.
    await crashWorkerAt(chain, undefined, "after_sign", async () => ({ id: intentId }), env);
    latest = await signed(resign + 1);
  }
  await expiry.expire(latest);
  const worker = await startOutboundWorker(chain, env);
  try {
    await expectGivenUp();
  } catch (err) {
    await worker.stop(); // the file's next tests start their own
    throw err;
  }
  return worker;

  async function expectGivenUp() {
    const failed = await waitForPayout(payoutId, "failed", 120_000);
    expect(failed).toMatchObject({ failure_code: "transfer_expired" });
    const intent = await outbound(intentId);
    expect(intent).toMatchObject({ status: "expired", resigns: maxResigns });
    const all = await candidates(intentId);
    expect(all.map((c) => c.status)).toEqual(Array(maxResigns + 1).fill("expired"));
    for (const candidate of all) expect(await expiry.refused(candidate), candidate.txHash).toBe(true);
    expect(await recipients.tokenOf(to)).toBe(0n);
    expect(await balanceOf(s.merchant.sandboxKey, chain)).toEqual(before);
    expect((await s.webhook("payout.failed", payoutId)).data.object).toMatchObject({
      status: "failed",
      failure_code: "transfer_expired",
    });
    const refunds = await query<{ n: number }>(
      getDb(),
      "select count(*)::int as n from events where type = 'payout.failed' and object_id = $1",
      [payoutId],
    );
    expect(refunds[0]!.n).toBe(1);
    expect(await checkLedgerConsistency(getDb(), s.merchant.id)).toEqual([]);
  }
}
