import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseAbiItem, type Address, type Hex } from "viem";
import { resetConfig } from "@/lib/platform/config/env";
import { checkLedgerConsistency } from "@/lib/books/ledger/check-ledger-consistency";
import { getDb } from "@/lib/platform/db/client";
import { query } from "@/lib/platform/db/query";
import { delegationCode } from "@/lib/chains/evm/evm-batch";
import { outboundEngine } from "@/lib/money-out/outbound/run-outbound";
import { trackOutbound } from "@/lib/money-out/outbound/track-outbound";
import { addDenied } from "@/lib/money-out/destinations/deny-list";
import { getPayoutPolicy, setPayoutPolicy } from "@/lib/money-out/payouts/payout-policy";
import { approvePayout, rejectPayout } from "@/lib/money-out/payouts/review-payout";
import { sandboxChainOps } from "@/lib/chains/connect/chain-families";
import { formatAmount } from "@/lib/kernel/amount";
import { planSweeps } from "@/lib/money-out/sweeps/plan-sweeps";
import { sweeperContract } from "@/lib/chains/evm/deposit-sweeper";
import { roleKey } from "@/lib/chains/wallets/role-keys";
import type { SpawnedWorker } from "@/scripts/lib/spawn-worker";
import { registerOutboundHooksOfDomains } from "@/worker/outbound-hooks";
import { api, newKey, newMerchant, type TestMerchant } from "../helpers/api";
import { balanceOf, startWatcherProcess } from "../helpers/chains";
import { runCli } from "../helpers/run-cli";
import { sanctionsOracleRuntime } from "../helpers/sanctions-oracle";
import { candidates, evmChain, outbound, startOutboundWorker, waitFor, waitForStatus } from "./outbound-helpers";
import { paidPayment, paymentCosts, sweepsOf } from "./payment-helpers";
import {
  expectFrozenPayoutFails,
  expectPayoutConfirms,
  payoutNow,
  units,
  usePayoutMerchant,
  waitForPayout,
} from "./payout-helpers";
import { expectDeniedRefundFails, expectRefundToAddress, expectRefundToSender, paidBySimulate } from "./refund-helpers";

// polygon: this file owns its watcher and outbound leader (tests/custody/README.md): sweeps, then payouts.
const CHAIN = "polygon" as const;
let chain: Awaited<ReturnType<typeof evmChain>>;
let watcher: SpawnedWorker;
let sender: SpawnedWorker;
let m: TestMerchant;

const paid = (amount: string) => paidPayment(m, CHAIN, amount);
// The payouts' passes run here too (trackOutbound, below), as in the worker.
registerOutboundHooksOfDomains();

beforeAll(async () => {
  [watcher, sender, chain, m] = await Promise.all([
    startWatcherProcess([CHAIN]),
    startOutboundWorker(CHAIN),
    evmChain(CHAIN),
    newMerchant("Sweeps"),
  ]);
}, 150_000);

afterAll(async () => {
  await Promise.all([watcher?.stop(), sender?.stop()]);
});

/** The in-process planner's strategy for polygon (the worker only signs: a batch is a batch by its options). */
function useStrategy(strategy: "topup" | "batch7702") {
  let before: string | undefined;
  beforeAll(() => {
    before = process.env.POLYGON_SWEEP_STRATEGY;
    process.env.POLYGON_SWEEP_STRATEGY = strategy;
    resetConfig();
  });
  afterAll(() => {
    if (before === undefined) delete process.env.POLYGON_SWEEP_STRATEGY;
    else process.env.POLYGON_SWEEP_STRATEGY = before;
    resetConfig();
  });
}

describe("sweeping deposit addresses into the treasury (EVM, top-up strategy)", () => {
  useStrategy("topup");
  let dust: string;

  it(
    "sweeps what is at or above the threshold, exactly, " +
      "after topping each address up with its gas; dust stays, listed",
    async () => {
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
    },
  );

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

describe("batched EIP-7702 sweeps: deposit addresses that never hold gas", () => {
  useStrategy("batch7702");
  const TRANSFER = parseAbiItem("event Transfer(address indexed from, address indexed to, uint256 value)");
  let addresses: string[];
  let contract: Address;

  const nativeOf = (address: string) => chain.client.getBalance({ address: address as Hex });
  const nonceOf = (address: string) => chain.client.getTransactionCount({ address: address as Hex });
  /** The transactions that moved USDT from these addresses into the treasury since `fromBlock`. */
  async function sweepTransactions(from: string[], fromBlock: bigint) {
    const logs = await chain.client.getLogs({
      address: chain.config.tokenAddress as Address,
      event: TRANSFER,
      args: { from: from as Address[], to: chain.treasury.address as Address },
      fromBlock,
    });
    return { count: logs.length, hashes: [...new Set(logs.map((l) => l.transactionHash))] };
  }
  async function sweepBatch(fromBlock: bigint) {
    const planned = await planSweeps(getDb(), chain.config);
    expect(planned.map((p) => p.address).sort()).toEqual([...addresses].sort());
    expect(planned.every((p) => p.topupId === null)).toBe(true);
    const ids = [...new Set(planned.map((p) => p.sweepId))];
    expect(ids).toHaveLength(1); // one intent for the whole batch
    const batch = await waitForStatus(ids[0]!, "confirmed", 90_000);
    expect(batch.purpose).toBe("sweep_batch");
    const moved = await sweepTransactions(addresses, fromBlock);
    expect(moved.count).toBe(addresses.length);
    expect(moved.hashes).toEqual([batch.txHash]); // one transaction carried every member
    return chain.rpc<{ type: Hex; authorizationList?: unknown[] }>("eth_getTransactionByHash", [batch.txHash]);
  }

  it("sweeps 20 addresses in one type-4 transaction carrying their authorizations, " +
    "after deploying the contract once", async () => {
    const amounts = Array.from({ length: 20 }, (_, i) => `1.${String(i + 1).padStart(2, "0")}0000`);
    addresses = await Promise.all(amounts.map((a) => paid(a)));
    const sum = amounts.reduce((total, a) => total + BigInt(a.replace(".", "")), 0n);
    for (const a of addresses) expect(await nativeOf(a)).toBe(0n);
    const sweeper = await roleKey(getDb(), "sandbox", CHAIN, "sweeper");
    contract = sweeperContract(chain.treasury.address, sweeper.address).address;
    const merchantBefore = await balanceOf(m.sandboxKey, CHAIN);
    const treasuryBefore = await chain.balanceOf(chain.treasury.address);
    const fromBlock = await chain.client.getBlockNumber();

    const tx = await sweepBatch(fromBlock);
    expect(tx.type).toBe("0x4");
    expect(tx.authorizationList).toHaveLength(20);

    expect(await chain.balanceOf(chain.treasury.address)).toBe(treasuryBefore + sum);
    for (const a of addresses) {
      expect(await chain.balanceOf(a)).toBe(0n);
      expect(await nativeOf(a)).toBe(0n); // never held gas
      expect(await chain.client.getCode({ address: a as Hex })).toBe(delegationCode(contract));
      expect(await nonceOf(a)).toBe(1); // its one authorization
    }
    const deploys = await query<{ status: string }>(
      getDb(),
      "select status from outbound_transactions where purpose = 'deploy' and chain = $1 and cause_id = $2",
      [CHAIN, contract],
    );
    expect(deploys).toEqual([{ status: "confirmed" }]);
    // The batch's fee is shared by the twenty payments in proportion to what each received (the units left
    // over by rounding go one each to the largest remainders); the deployment is the installation's.
    const [batch] = await query<{ id: string; fee: string }>(
      getDb(),
      "select o.id, o.fee_native::text as fee from outbound_transactions o join sweep_batch_members b on " +
        "b.outbound_id = o.id where b.address = $1",
      [addresses[0]],
    );
    const shares = await Promise.all(addresses.map(async (a) => (await paymentCosts(a))[0]!.fee));
    expect(shares.reduce((total, f) => total + f, 0n)).toBe(BigInt(batch!.fee));
    for (const [i, share] of shares.entries()) {
      const exact = (BigInt(batch!.fee) * BigInt(amounts[i]!.replace(".", ""))) / sum;
      expect(share - exact).toBeLessThanOrEqual(1n);
      expect(share >= exact).toBe(true);
    }
    const deployCost = await query(
      getDb(),
      "select c.subject_type from outbound_costs c join outbound_transactions o on o.id = c.outbound_id where " +
        "o.purpose = 'deploy' and o.chain = $1 and o.cause_id = $2",
      [CHAIN, contract],
    );
    expect(deployCost).toEqual([{ subject_type: "installation" }]);
    expect(await balanceOf(m.sandboxKey, CHAIN)).toEqual(merchantBefore);
    expect(await checkLedgerConsistency(getDb(), m.id)).toEqual([]);
    const listed = await runCli(["sweeps", "list", "--mode", "sandbox", "--chain", CHAIN, "--json"], process.env);
    expect(JSON.parse(listed.stdout).data).toEqual([]);
    expect(await planSweeps(getDb(), chain.config)).toEqual([]);
  }, 180_000);

  it("sweeps a second round of payments to the delegated addresses without new authorizations", async () => {
    const ops = await sandboxChainOps(chain.config);
    const treasuryBefore = await chain.balanceOf(chain.treasury.address);
    const fromBlock = await chain.client.getBlockNumber();
    // Late transfers to the (confirmed) payments' addresses: credited once deep enough, then due again.
    await Promise.all(addresses.map((a, i) => ops.payFromSandboxWallet(a, 2_000_000n + BigInt(i))));
    await waitFor(
      "the late transfers to be credited",
      async () => {
        const [row] = await query<{ n: number }>(
          getDb(),
          `select count(*)::int as n from deposits d join payments p on p.id = d.payment_id
           where p.deposit_address = any($1::text[]) and d.status = 'credited'`,
          [addresses],
        );
        return row!.n === 40;
      },
      60_000,
    );

    const tx = await sweepBatch(fromBlock);
    expect(tx.type).toBe("0x2"); // no authorization needed: a plain call
    expect(tx.authorizationList ?? []).toEqual([]);
    expect(await chain.balanceOf(chain.treasury.address)).toBe(treasuryBefore + 40_000_000n + 190n);
    for (const a of addresses) {
      expect(await chain.balanceOf(a)).toBe(0n);
      expect(await nativeOf(a)).toBe(0n);
      expect(await nonceOf(a)).toBe(1);
    }
  }, 180_000);

  it("two planners at once put each address in one batch", async () => {
    addresses = await Promise.all([paid("1.500000"), paid("2.500000"), paid("3.500000")]);
    const [first, second] = await Promise.all([planSweeps(getDb(), chain.config), planSweeps(getDb(), chain.config)]);
    expect([...first, ...second].map((p) => p.address).sort()).toEqual([...addresses].sort());
    const members = await query<{ address: string; outbound_id: string }>(
      getDb(),
      "select address, outbound_id from sweep_batch_members where address = any($1::text[])",
      [addresses],
    );
    expect(members).toHaveLength(3);
    for (const id of new Set(members.map((r) => r.outbound_id))) await waitForStatus(id, "confirmed", 90_000);
    for (const a of addresses) expect(await chain.balanceOf(a)).toBe(0n);
    // (Other files sweep their own chains at the same time: only this chain's batches are this test's.)
    expect(await query(getDb(), "select 1 from sweep_batch_members where open and chain = $1", [CHAIN])).toEqual([]);
    // The books follow batches too: what the chain holds is what they say, and what merchants are owed.
    const run = await runCli(["reconcile", "--mode", "sandbox", "--chain", CHAIN, "--json"], process.env);
    const [report] = JSON.parse(run.stdout).chains;
    expect(report.usdt, run.stdout).toMatchObject({ unmatched: "0.000000", difference: "0.000000" });
    expect(report.alerts).toEqual([]);
    expect(run.code).toBe(0);
  }, 120_000);
});

describe("payouts on polygon, end to end (through the treasury and the outbound engine)", () => {
  const s = usePayoutMerchant(CHAIN, "50.000000");
  const createPayout = s.createPayout;
  const recipients = () => ({ freshAddress: chain.freshAddress, tokenOf: chain.balanceOf, decimals: 6 });
  // Payout calls allow 10 a minute per key: the control tests below use a key of their own.
  let controlsKey: string;
  beforeAll(async () => {
    controlsKey = (await newKey(s.merchant.id, "sandbox")).secret;
  });
  const pay = (body: Record<string, unknown>) =>
    api("POST", "/v1/payouts", { key: controlsKey, body: { chain: CHAIN, ...body } });
  const reviewAbove = (limit: string) =>
    runCli(
      ["payouts", "policy", "set", "--merchant", s.merchant.id, "--mode", "sandbox", "--review-above", limit, "--json"],
      process.env,
    );

  it("pays part of the balance: pending → processing → confirmed; " +
    "the recipient gets exactly it; a signed payout.confirmed with the metadata arrives", async () => {
    const done = await expectPayoutConfirms(s, CHAIN, recipients());
    expect(done.tx_hash).toMatch(/^0x[0-9a-f]{64}$/);
    expect(done.confirmations).toBeGreaterThanOrEqual(6);
  }, 150_000);

  it("a payout to an address the token refuses reverts on chain: " +
    "failed (transfer_reverted), refunded, payout.failed", async () => {
    await expectFrozenPayoutFails(s, CHAIN, recipients());
  }, 150_000);

  it("a deny-listed destination is blocked, refunded, and never signed", async () => {
    const to = chain.freshAddress();
    const added = await runCli(
      ["denylist", "add", "--address", to.toLowerCase(), "--chain", CHAIN, "--json"],
      process.env,
    );
    expect(added.code, added.stderr).toBe(0);
    const before = await balanceOf(s.merchant.sandboxKey, CHAIN);
    const created = await createPayout({ to_address: to, amount: "2.000000" });
    expect(created.json.status).toBe("pending");
    const blocked = await waitForPayout(created.json.id, "blocked");
    expect(blocked).toMatchObject({ failure_code: "denied_destination", tx_hash: null });
    expect(await balanceOf(s.merchant.sandboxKey, CHAIN)).toEqual(before);
    const [signed] = await query(getDb(), "select 1 from outbound_transactions where cause_id = $1", [created.json.id]);
    expect(signed).toBeUndefined();
  });

  it("refunds: part of a payment to an address and to its sender, pending → processing → succeeded, exact on chain; " +
    "an over-refund is refused; a deny-listed destination fails unsigned, restored, refund.failed", async () => {
    const paid = await paidBySimulate(s.merchant, CHAIN, "3.000000");
    const done = await expectRefundToAddress(s, CHAIN, recipients(), paid);
    expect(done.tx_hash).toMatch(/^0x[0-9a-f]{64}$/);
    await expectRefundToSender(s, CHAIN, recipients(), paid);
    await expectDeniedRefundFails(s, CHAIN, recipients(), paid);
  }, 240_000);

  it("review: above the merchant's limit a payout waits; approved it confirms, " +
    "rejected it fails (rejected) with a refund", async () => {
    const set = await reviewAbove("3.000000");
    expect(set.code, set.stderr).toBe(0);
    expect(JSON.parse(set.stdout)).toMatchObject({ review_above: "3.000000" });
    const [approve, reject] = await Promise.all([
      createPayout({ to_address: chain.freshAddress(), amount: "4.000000" }),
      createPayout({ to_address: chain.freshAddress(), amount: "5.000000" }),
    ]);
    await waitForPayout(approve.json.id, "review_required");
    await waitForPayout(reject.json.id, "review_required");
    const before = await balanceOf(s.merchant.sandboxKey, CHAIN);
    const rejected = await runCli(["payouts", "reject", "--payout", reject.json.id, "--json"], process.env);
    expect(JSON.parse(rejected.stdout)).toMatchObject({ status: "failed", failure_code: "rejected" });
    expect((await balanceOf(s.merchant.sandboxKey, CHAIN)).available).toBe(
      formatAmount(units(before.available) + 5_000_000n),
    );
    const approved = await runCli(["payouts", "approve", "--payout", approve.json.id, "--json"], process.env);
    expect(JSON.parse(approved.stdout)).toMatchObject({ status: "pending" });
    await waitForPayout(approve.json.id, "confirmed", 90_000);
    const again = await runCli(["payouts", "approve", "--payout", approve.json.id, "--json"], process.env);
    expect(again.code).toBe(2);
    await reviewAbove("none");
  }, 150_000);

  it("review of new destinations: the first payout to an address waits for review; " +
    "once it is paid, the next one to it goes out unreviewed", async () => {
    const policy = await getPayoutPolicy(getDb(), s.merchant.id, "sandbox");
    await setPayoutPolicy(getDb(), { ...policy, reviewNewDestinations: true });
    try {
      const to = chain.freshAddress();
      const first = await pay({ to_address: to, amount: "1.000000" });
      await waitForPayout(first.json.id, "review_required");
      await approvePayout(getDb(), first.json.id);
      await waitForPayout(first.json.id, "confirmed");
      // The same address, spelt in lower case: paid before, so not held.
      const seen = new Set<string>();
      const second = await pay({ to_address: to.toLowerCase(), amount: "2.000000" });
      await waitForPayout(second.json.id, "confirmed", 60_000, seen);
      expect(seen.has("review_required")).toBe(false);
      expect(await chain.balanceOf(to)).toBe(3_000_000n);
      // Another address is new again.
      const other = await pay({ to_address: chain.freshAddress(), amount: "1.000000" });
      await waitForPayout(other.json.id, "review_required");
      await rejectPayout(getDb(), other.json.id);
    } finally {
      await setPayoutPolicy(getDb(), policy);
    }
  }, 150_000);

  it("checked again just before signing: an address deny-listed after its payout was queued is " +
    "blocked and never signed; an unreadable sanctions oracle holds the signing until it reads", async () => {
    // This file's leader stops, so the payouts' transfers wait as queued intents; this process then runs the
    // leader's passes itself (trackOutbound, the code the leader runs), with a sanctions oracle configured.
    await sender.stop();
    const engine = (oracle: string) => outboundEngine(getDb(), { ...chain.config, sanctionsOracle: oracle });
    const [listed, clean] = [chain.freshAddress(), chain.freshAddress()];
    const before = await balanceOf(s.merchant.sandboxKey, CHAIN);
    const [denied, held] = await Promise.all([
      pay({ to_address: listed, amount: "1.000000" }),
      pay({ to_address: clean, amount: "1.500000" }),
    ]);
    const transferOf = (id: string) =>
      waitFor(
        `${id}'s transfer to be queued`,
        async () =>
          (
            await query<{ outbound_id: string | null }>(getDb(), "select outbound_id from payouts where id = $1", [id])
          )[0]?.outbound_id,
        60_000,
      );
    try {
      const [deniedOut, heldOut] = await Promise.all([transferOf(denied.json.id), transferOf(held.json.id)]);
      // Listed now: after its payout was executed (and checked) and its transfer queued.
      await addDenied(getDb(), listed, CHAIN, "listed after its payout was queued");
      // The oracle cannot be read (nothing at its address): neither transfer is signed, both payouts wait.
      const oracle = chain.freshAddress();
      await trackOutbound(getDb(), engine(oracle));
      for (const id of [deniedOut, heldOut]) {
        expect((await outbound(id)).status).toBe("intent");
        expect(await candidates(id)).toEqual([]);
      }
      expect((await payoutNow(denied.json.id)).status).toBe("pending");
      expect((await payoutNow(held.json.id)).status).toBe("pending");
      // Readable again (the oracle's code at that address; it lists neither): the listed address is caught by
      // the deny-list, its transfer given up unsigned; the other is signed and sent.
      await chain.rpc("anvil_setCode", [oracle, sanctionsOracleRuntime()]);
      await trackOutbound(getDb(), engine(oracle));
      expect(await payoutNow(denied.json.id)).toMatchObject({
        status: "blocked",
        failure_code: "denied_destination",
        tx_hash: null,
      });
      expect((await outbound(deniedOut)).status).toBe("expired");
      expect(await candidates(deniedOut)).toEqual([]);
      expect((await payoutNow(held.json.id)).status).toBe("processing");
    } finally {
      sender = await startOutboundWorker(CHAIN);
    }
    await waitForPayout(held.json.id, "confirmed");
    expect(await chain.balanceOf(clean)).toBe(1_500_000n);
    expect(await chain.transfersTo(listed)).toBe(0);
    expect((await s.webhook("payout.blocked", denied.json.id)).data.object).toMatchObject({
      status: "blocked",
      failure_code: "denied_destination",
    });
    // The blocked payout's amount is back in available; only the paid one left it.
    expect((await balanceOf(s.merchant.sandboxKey, CHAIN)).available).toBe(
      formatAmount(units(before.available) - 1_500_000n),
    );
  }, 150_000);

  it(
    "refuses destinations that would lose or loop the money: " +
      "the token contract, an own deposit address, the treasury",
    async () => {
      const depositAddress = (
        await api("POST", "/v1/payments", { key: s.merchant.sandboxKey, body: { amount: "1.000000", chain: CHAIN } })
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
    },
  );
});
