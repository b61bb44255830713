import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Hex } from "viem";
import { checkLedgerConsistency } from "@/lib/ledger/check-ledger-consistency";
import { getDb } from "@/lib/db/client";
import { planSweeps } from "@/lib/sweeps/plan-sweeps";
import path from "node:path";
import { query } from "@/lib/db/query";
import { createWebhookEndpoint } from "@/lib/webhooks/create-webhook-endpoint";
import { spawnWorker, type SpawnedWorker } from "@/scripts/lib/spawn-worker";
import { api, newMerchant, type TestMerchant } from "../helpers/api";
import { balanceOf, startWatcherProcess } from "../helpers/chains";
import { runCli } from "../helpers/run-cli";
import { startReceiver, verifySignature } from "../helpers/webhook-receiver";
import { evmChain, outbound, startOutboundWorker, waitFor, waitForStatus } from "./outbound-helpers";
import { paidPayment, sweepsOf } from "./payment-helpers";

// polygon: this file owns its watcher and outbound leader (tests/custody/README.md): sweeps, then payouts.
const root = path.resolve(import.meta.dirname, "../..");
const CHAIN = "polygon" as const;
let chain: Awaited<ReturnType<typeof evmChain>>;
let watcher: SpawnedWorker;
let sender: SpawnedWorker;
let m: TestMerchant;

const paid = (amount: string) => paidPayment(m, CHAIN, amount);

beforeAll(async () => {
  [watcher, sender, chain, m] = await Promise.all([
    startWatcherProcess([CHAIN]),
    startOutboundWorker(CHAIN),
    evmChain(CHAIN),
    newMerchant("Sweeps"),
  ]);
}, 60_000);

afterAll(async () => {
  await Promise.all([watcher?.stop(), sender?.stop()]);
});

describe("sweeping deposit addresses into the treasury (EVM, top-up strategy)", () => {
  let dust: string;

  it("sweeps what is at or above the threshold, exactly, after topping each address up with its gas; dust stays, listed", async () => {
    const [a, b, small] = await Promise.all([paid("5.000000"), paid("3.500000"), paid("0.400000")]);
    dust = small;
    const merchantBefore = await balanceOf(m.sandboxKey, CHAIN);
    const treasuryBefore = await chain.balanceOf(chain.treasury.address);

    const planned = await planSweeps(getDb(), chain.config);
    expect(planned.map((p) => p.address).sort()).toEqual([a, b].sort());
    expect(planned.every((p) => p.topupId !== null)).toBe(true); // they held no gas
    for (const p of planned) await waitForStatus(p.sweepId, "confirmed", 60_000);

    expect(await chain.balanceOf(chain.treasury.address)).toBe(treasuryBefore + 8_500_000n);
    expect(await chain.balanceOf(a)).toBe(0n);
    expect(await chain.balanceOf(b)).toBe(0n);
    expect(await chain.balanceOf(small)).toBe(400_000n);
    for (const p of planned) {
      const topup = await outbound(p.topupId!);
      const sweep = await outbound(p.sweepId);
      expect(topup.status).toBe("confirmed");
      expect(sweep.after).toBe(topup.id);
      // The top-up gave exactly gas × max fee; the sweep paid at most that, and the rest stays as the address's gas.
      expect(sweep.feeNative! <= topup.rawAmount).toBe(true);
      const left = await chain.client.getBalance({ address: p.address as Hex });
      expect(left).toBe(topup.rawAmount - sweep.feeNative!);
    }
    // Sweeps move the service's custody, never a merchant's balance.
    expect(await balanceOf(m.sandboxKey, CHAIN)).toEqual(merchantBefore);
    expect(await checkLedgerConsistency(getDb(), m.id)).toEqual([]);

    const listed = await runCli(["sweeps", "list", "--mode", "sandbox", "--chain", CHAIN, "--json"], process.env);
    expect(listed.code, listed.stderr).toBe(0);
    expect(JSON.parse(listed.stdout).data).toEqual([
      { chain: CHAIN, address: small, unswept: "0.400000", threshold: "1.000000", state: "dust" },
    ]);
    expect(await planSweeps(getDb(), chain.config)).toEqual([]); // nothing is planned twice
  });

  it("two planners at once sweep each address once", async () => {
    const addresses = await Promise.all([paid("2.000000"), paid("2.500000")]);
    const [first, second] = await Promise.all([planSweeps(getDb(), chain.config), planSweeps(getDb(), chain.config)]);
    expect([...first, ...second].map((p) => p.address).sort()).toEqual([...addresses].sort());
    for (const address of addresses) {
      const sweeps = await sweepsOf(address);
      expect(sweeps).toHaveLength(1);
      await waitForStatus(sweeps[0]!.id, "confirmed", 60_000);
      expect(await chain.balanceOf(address)).toBe(0n);
    }
  });

  it("when payouts need liquidity, dust below the threshold is swept too, largest first", async () => {
    const planned = await planSweeps(getDb(), chain.config, { needUnits: 300_000n });
    expect(planned.map((p) => p.address)).toEqual([dust]);
    await waitForStatus(planned[0]!.sweepId, "confirmed", 60_000);
    expect(await chain.balanceOf(dust)).toBe(0n);
    const listed = await runCli(["sweeps", "list", "--mode", "sandbox", "--chain", CHAIN, "--json"], process.env);
    expect(JSON.parse(listed.stdout).data).toEqual([]);
  });
});

describe("payouts on polygon, end to end (through the treasury and the outbound engine)", () => {
  let jobs: SpawnedWorker;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let p: TestMerchant;
  let secret: string;

  const createPayout = (body: Record<string, unknown>) =>
    api("POST", "/v1/payouts", { key: p.sandboxKey, body: { chain: CHAIN, ...body } });
  const payoutNow = async (id: string) => (await api("GET", `/v1/payouts/${id}`, { key: p.sandboxKey })).json;
  const waitForPayout = (id: string, status: string, timeoutMs = 60_000) =>
    waitFor(
      `${id} to be ${status}`,
      async () => {
        const now = await payoutNow(id);
        if (["confirmed", "failed", "blocked"].includes(now.status) && now.status !== status)
          throw new Error(`${id} ended ${now.status}: ${JSON.stringify(now)}`);
        return now.status === status ? now : null;
      },
      timeoutMs,
    );

  beforeAll(async () => {
    receiver = await startReceiver();
    // The jobs worker runs execute_payout and the webhook deliveries; its sweep cron stays out of the other
    // files' chains (a threshold nothing reaches: only a payout's need for liquidity sweeps here).
    [jobs, p] = await Promise.all([
      spawnWorker(root, {
        WORKER_ROLES: "jobs",
        LOG_LEVEL: "error",
        SANDBOX_SWEEP_THRESHOLD: "1000000",
        WEBHOOK_RETRY_SCALE: "0.1",
      }),
      newMerchant("Payouts"),
    ]);
    ({ secret } = await createWebhookEndpoint(
      getDb(),
      { merchantId: p.id, mode: "sandbox" },
      { url: receiver.url("/payouts"), events: [] },
    ));
    await paidPayment(p, CHAIN, "50.000000");
  }, 90_000);
  afterAll(async () => {
    await receiver?.close();
    await jobs?.stop();
  });

  it("pays part of the balance: pending → processing → confirmed; the recipient gets exactly it; a signed payout.confirmed with the metadata arrives", async () => {
    const to = chain.freshAddress();
    const created = await createPayout({ to_address: to, amount: "12.345678", metadata: { order: "A-1" } });
    expect(created.status, created.text).toBe(200);
    expect(created.json).toMatchObject({ status: "pending", tx_hash: null, amount: "12.345678" });
    expect(await balanceOf(p.sandboxKey, CHAIN)).toEqual({ available: "37.654322", reserved: "0.000000" });
    const seen = new Set<string>();
    const done = await waitFor(
      "confirmed",
      async () => {
        const now = await payoutNow(created.json.id);
        seen.add(now.status);
        return now.status === "confirmed" ? now : null;
      },
      90_000,
    );
    expect(seen.has("processing")).toBe(true);
    expect(done.tx_hash).toMatch(/^0x[0-9a-f]{64}$/);
    expect(done.confirmations).toBeGreaterThanOrEqual(6);
    expect(done.confirmed_at).toBeTruthy();
    expect(await chain.balanceOf(to)).toBe(12_345_678n);
    expect(await balanceOf(p.sandboxKey, CHAIN)).toEqual({ available: "37.654322", reserved: "0.000000" });
    const hit = await waitFor("the webhook", async () =>
      receiver.at("/payouts").find((r) => JSON.parse(r.body).type === "payout.confirmed"),
    );
    expect(verifySignature(hit.headers["service-signature"] as string, hit.body, secret)).toBe(true);
    expect(JSON.parse(hit.body).data.object).toMatchObject({
      id: created.json.id,
      status: "confirmed",
      metadata: { order: "A-1" },
    });
    expect(await checkLedgerConsistency(getDb(), p.id)).toEqual([]);
  }, 120_000);

  it("a payout to an address the token refuses reverts on chain: failed (transfer_reverted), refunded, payout.failed", async () => {
    const to = chain.freshAddress();
    const frozen = await api("POST", `/v1/sandbox/chains/${CHAIN}/freeze`, {
      key: p.sandboxKey,
      body: { address: to },
    });
    expect(frozen.status, frozen.text).toBe(200);
    const before = await balanceOf(p.sandboxKey, CHAIN);
    const created = await createPayout({ to_address: to, amount: "1.000000" });
    const failed = await waitForPayout(created.json.id, "failed", 90_000);
    expect(failed).toMatchObject({ failure_code: "transfer_reverted" });
    expect(failed.tx_hash).toMatch(/^0x/);
    expect(await balanceOf(p.sandboxKey, CHAIN)).toEqual(before);
    expect(await chain.balanceOf(to)).toBe(0n);
    await waitFor("payout.failed", async () =>
      receiver
        .at("/payouts")
        .find(
          (r) => JSON.parse(r.body).type === "payout.failed" && JSON.parse(r.body).data.object.id === created.json.id,
        ),
    );
  }, 120_000);

  it("a deny-listed destination is blocked, refunded, and never signed", async () => {
    const to = chain.freshAddress();
    const added = await runCli(
      ["denylist", "add", "--address", to.toLowerCase(), "--chain", CHAIN, "--json"],
      process.env,
    );
    expect(added.code, added.stderr).toBe(0);
    const before = await balanceOf(p.sandboxKey, CHAIN);
    const created = await createPayout({ to_address: to, amount: "2.000000" });
    expect(created.json.status).toBe("pending");
    const blocked = await waitForPayout(created.json.id, "blocked");
    expect(blocked).toMatchObject({ failure_code: "denied_destination", tx_hash: null });
    expect(await balanceOf(p.sandboxKey, CHAIN)).toEqual(before);
    const [signed] = await query(getDb(), "select 1 from outbound_transactions where cause_id = $1", [created.json.id]);
    expect(signed).toBeUndefined();
  });

  it("review: above the merchant's limit a payout waits; approved it confirms, rejected it fails (rejected) with a refund", async () => {
    const set = await runCli(
      ["payouts", "policy", "set", "--merchant", p.id, "--mode", "sandbox", "--review-above", "3.000000", "--json"],
      process.env,
    );
    expect(set.code, set.stderr).toBe(0);
    expect(JSON.parse(set.stdout)).toMatchObject({ review_above: "3.000000" });
    const [approve, reject] = await Promise.all([
      createPayout({ to_address: chain.freshAddress(), amount: "4.000000" }),
      createPayout({ to_address: chain.freshAddress(), amount: "5.000000" }),
    ]);
    await waitForPayout(approve.json.id, "review_required");
    await waitForPayout(reject.json.id, "review_required");
    const before = await balanceOf(p.sandboxKey, CHAIN);
    const rejected = await runCli(["payouts", "reject", "--payout", reject.json.id, "--json"], process.env);
    expect(JSON.parse(rejected.stdout)).toMatchObject({ status: "failed", failure_code: "rejected" });
    expect(Number((await balanceOf(p.sandboxKey, CHAIN)).available)).toBeCloseTo(Number(before.available) + 5, 6);
    const approved = await runCli(["payouts", "approve", "--payout", approve.json.id, "--json"], process.env);
    expect(JSON.parse(approved.stdout)).toMatchObject({ status: "pending" });
    await waitForPayout(approve.json.id, "confirmed", 90_000);
    const again = await runCli(["payouts", "approve", "--payout", approve.json.id, "--json"], process.env);
    expect(again.code).toBe(2);
    await runCli(
      ["payouts", "policy", "set", "--merchant", p.id, "--mode", "sandbox", "--review-above", "none", "--json"],
      process.env,
    );
  }, 150_000);

  it("refuses destinations that would lose or loop the money: the token contract, an own deposit address, the treasury", async () => {
    const depositAddress = (
      await api("POST", "/v1/payments", { key: p.sandboxKey, body: { amount: "1.000000", chain: CHAIN } })
    ).json.deposit_address;
    for (const to of [
      chain.config.tokenAddress,
      depositAddress,
      chain.treasury.address,
      chain.treasury.address.toLowerCase(),
    ]) {
      const refused = await createPayout({ to_address: to, amount: "1.000000" });
      expect(refused.status, to).toBe(400);
      expect(refused.json.error).toMatchObject({ type: "invalid_request_error", param: "to_address" });
    }
  });
});
