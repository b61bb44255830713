import path from "node:path";
import { afterAll, beforeAll, expect } from "vitest";
import type { Chain } from "@/lib/chains/chains";
import { resetConfig } from "@/lib/config/env";
import { getDb } from "@/lib/db/client";
import { query } from "@/lib/db/query";
import { checkLedgerConsistency } from "@/lib/ledger/check-ledger-consistency";
import { formatAmount } from "@/lib/money/amount";
import { PAYOUT_COLUMNS, toPayoutRow } from "@/lib/payouts/payout-row";
import { serializePayout } from "@/lib/payouts/serialize-payout";
import { createWebhookEndpoint } from "@/lib/webhooks/create-webhook-endpoint";
import { spawnWorker, type SpawnedWorker } from "@/scripts/lib/spawn-worker";
import { api, newMerchant, type TestMerchant } from "../helpers/api";
import { balanceOf, startWatcherProcess } from "../helpers/chains";
import { startReceiver, verifySignature } from "../helpers/webhook-receiver";
import { waitFor } from "./outbound-helpers";
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
  expect(await checkLedgerConsistency(getDb(), s.merchant.id)).toEqual([]);
  return done;
}

/**
 * A payout to an address the token refuses (frozen through the sandbox API) is signed and lands, but reverts:
 * `failed` with transfer_reverted, the amount back in `available`, payout.failed delivered, nothing received.
 */
export async function expectFrozenPayoutFails(s: PayoutSetting, chain: Chain, recipients: Recipients) {
  const to = await recipients.freshAddress();
  const frozen = await api("POST", `/v1/sandbox/chains/${chain}/freeze`, {
    key: s.merchant.sandboxKey,
    body: { address: to },
  });
  expect(frozen.status, frozen.text).toBe(200);
  const before = await balanceOf(s.merchant.sandboxKey, chain);
  const created = await s.createPayout({ to_address: to, amount: "1.000000" });
  expect(created.status, created.text).toBe(200);
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
  expect(await checkLedgerConsistency(getDb(), s.merchant.id)).toEqual([]);
}
