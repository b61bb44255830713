import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/lib/platform/db/client";
import { query } from "@/lib/platform/db/query";
import { planSweeps } from "@/lib/money-out/sweeps/plan-sweeps";
import { budgetOfSigned } from "@/lib/chains/solana/solana-priority-fee";
import type { SpawnedWorker } from "@/scripts/lib/spawn-worker";
import { newMerchant, type TestMerchant } from "../helpers/api";
import { TEST_SOLANA_FINALITY_DEPTH } from "../setup/sandbox-chains";
import { balanceOf, startWatcherProcess } from "../helpers/chains";
import { expectTreasuryGapAlerts, paidPayment, reconcileChain } from "./payment-helpers";
import {
  candidates,
  outbound,
  sendFromTreasury,
  startOutboundWorker,
  waitFor,
  waitForStatus,
  crashWorkerAt,
  RESTART_TEST_MS,
} from "./outbound-helpers";
import { solanaChain, sweepToTreasury, type SolanaChain } from "./solana-helpers";
import {
  expectExhaustedPayoutFails,
  expectFrozenPayoutBlocked,
  expectPayoutConfirms,
  usePayoutMerchant,
} from "./payout-helpers";
import { expectDeniedRefundFails, expectRefundToAddress, expectRefundToSender, paidBySimulate } from "./refund-helpers";

// The emulated solana (LiteSVM behind JSON-RPC, 200 ms slots, a blockhash valid 150 slots, `finalized`
// TEST_SOLANA_FINALITY_DEPTH slots behind): a real outbound worker signs, sends and confirms once finalized.
const USDT = 1_000_000n;
const SIGNATURE_FEE = 5_000n; // lamports per signature, no priority fee
let chain: SolanaChain;
let worker: SpawnedWorker | undefined;

async function crashedAt(point: "after_sign" | "after_broadcast", send: () => Promise<{ id: string }>) {
  const intent = await crashWorkerAt("solana", worker, point, send);
  worker = undefined;
  return intent;
}

const payout = (to: string, raw: bigint) => sendFromTreasury("solana", chain.treasury.address, to, raw);

beforeAll(async () => {
  chain = await solanaChain();
  worker = await startOutboundWorker("solana");
  // The leader records the roles and gives them SOL on start.
  await waitFor("the roles to be registered and funded", async () => {
    const [row] = await query(getDb(), "select 1 from wallet_roles where mode = 'sandbox' and chain = 'solana'");
    return row && (await chain.lamports(chain.sweeper.address)) > 0n;
  });
  await chain.ops.fund(chain.treasury.address, 1_000n * USDT); // resolves once confirmed
}, 150_000);

afterAll(async () => {
  await worker?.stop();
});

describe("outbound Solana transactions (emulated)", () => {
  it(
    "sends USDT from the treasury to a fresh owner: its token account is created, " +
      "confirmed once finalized, fee recorded",
    async () => {
      const to = await chain.freshAddress();
      const intent = await payout(to, 12_345_678n);
      const done = await waitForStatus(intent.id, "confirmed");
      expect(await chain.usdtOf(to)).toBe(12_345_678n);
      expect(done.confirmations).toBeGreaterThanOrEqual(TEST_SOLANA_FINALITY_DEPTH);
      expect(done.feeNative).toBe(SIGNATURE_FEE);
      expect(done.blockHash).toBe(`slot:${done.blockNumber}`);
      const [only] = await candidates(intent.id);
      expect(only).toMatchObject({ status: "confirmed", txHash: done.txHash, feeNative: SIGNATURE_FEE });
      expect(only!.validUntil! > BigInt(done.blockNumber!)).toBe(true);
      // Sending the same bytes again is harmless: the node answers "already processed".
      expect(await chain.driver.broadcast(only!)).toEqual({ sent: true });
      expect(await chain.transfersTo(to)).toBe(1);
    },
  );

  it(
    "a sweep signed by a deposit address with no SOL: " +
      "the sweeper pays the fee, the account is closed, its rent goes to the treasury",
    async () => {
      const deposit = await chain.fundedDeposit(7_654_321n);
      const depositAta = await chain.ataOf(deposit.owner);
      const rent = await chain.lamports(depositAta);
      expect(rent).toBeGreaterThan(0n);
      expect(await chain.lamports(deposit.owner)).toBe(0n);
      const before = {
        usdt: await chain.usdtOf(chain.treasury.address),
        treasurySol: await chain.lamports(chain.treasury.address),
        sweeperSol: await chain.lamports(chain.sweeper.address),
      };
      const intent = await sweepToTreasury(chain, deposit, 7_654_321n);
      const done = await waitForStatus(intent.id, "confirmed");
      expect(await chain.usdtOf(chain.treasury.address)).toBe(before.usdt + 7_654_321n);
      expect(await chain.accountExists(depositAta)).toBe(false);
      expect(await chain.lamports(chain.treasury.address)).toBe(before.treasurySol + rent);
      expect(done.feeNative).toBe(2n * SIGNATURE_FEE); // the sweeper's and the owner's signatures
      expect(await chain.lamports(chain.sweeper.address)).toBe(before.sweeperSol - done.feeNative!);
      expect(await chain.lamports(deposit.owner)).toBe(0n);
      // The custody books (docs/CUSTODY.md): the rent read from the transaction's balances, the sweeper's fee.
      expect(done).toMatchObject({ rentReturnedNative: rent, rentPaidNative: 0n });
      const books = await query<{ asset: string; account: string; total: string }>(
        getDb(),
        "select asset, account, sum(amount)::text as total " +
          "from custody_entries where cause_id = $1 group by 1, 2 order by 1, 2",
        [intent.id],
      );
      expect(books.filter((b) => b.total !== "0")).toEqual([
        { asset: "native", account: "fees", total: done.feeNative!.toString() },
        { asset: "native", account: "sweeper", total: (-done.feeNative!).toString() },
        { asset: "native", account: "token_account_rent", total: (-rent).toString() },
        { asset: "native", account: "treasury", total: rent.toString() },
        { asset: "usdt", account: "deposit_addresses", total: "-7654321" },
        { asset: "usdt", account: "treasury", total: "7654321" },
      ]);
    },
  );

  it(
    "SIGKILL between signing and broadcast: the stored bytes are sent after restart, exactly one transfer",
    async () => {
      const to = await chain.freshAddress();
      const intent = await crashedAt("after_sign", () => payout(to, USDT));
      const [signed] = await candidates(intent.id);
      expect(signed!.status).toBe("signed");
      expect((await outbound(intent.id)).status).toBe("signed");
      expect(await chain.known(signed!.txHash)).toBe(false); // never broadcast
      worker = await startOutboundWorker("solana");
      const done = await waitForStatus(intent.id, "confirmed");
      expect(done.txHash).toBe(signed!.txHash); // the same bytes, not a new signature
      expect(await candidates(intent.id)).toHaveLength(1);
      expect(await chain.transfersTo(to)).toBe(1);
      expect(await chain.usdtOf(to)).toBe(USDT);
    },
    RESTART_TEST_MS,
  );

  it(
    "SIGKILL between broadcast and recording it: found landed after restart, exactly one transfer",
    async () => {
      const to = await chain.freshAddress();
      const intent = await crashedAt("after_broadcast", () => payout(to, 2n * USDT));
      const [candidate] = await candidates(intent.id);
      expect(candidate!.status).toBe("signed"); // the broadcast happened but was never recorded
      expect(await chain.known(candidate!.txHash)).toBe(true);
      worker = await startOutboundWorker("solana");
      const done = await waitForStatus(intent.id, "confirmed");
      expect(done.txHash).toBe(candidate!.txHash);
      expect(await candidates(intent.id)).toHaveLength(1);
      expect(await chain.transfersTo(to)).toBe(1);
      expect(await chain.usdtOf(to)).toBe(2n * USDT);
    },
    RESTART_TEST_MS,
  );

  it("a blockhash expired before broadcast (finalized height past it): " +
    "re-signed once on a new blockhash, one transfer", async () => {
    const to = await chain.freshAddress();
    const intent = await crashedAt("after_sign", () => payout(to, 3n * USDT));
    const [stale] = await candidates(intent.id);
    // Past the 150-slot window and then the finality depth more,
    // so even `finalized` is past the last valid block height.
    await chain.ops.mine(200);
    expect(await chain.driver.broadcast(stale!)).toEqual({ sent: false, reason: expect.stringMatching(/blockhash/i) });
    worker = await startOutboundWorker("solana");
    // A restart, the re-sign once `finalized` passes the old height, then the finality depth to finalize the new one:
    // over a minute under the CI's load (it timed out at 60 s once).
    const done = await waitForStatus(intent.id, "confirmed", 90_000);
    expect(done.resigns).toBe(1);
    const all = await candidates(intent.id);
    expect(all.map((c) => c.status)).toEqual(["expired", "confirmed"]);
    expect(all[1]!.validUntil! > stale!.validUntil!).toBe(true);
    expect(done.txHash).toBe(all[1]!.txHash);
    expect(await chain.known(stale!.txHash)).toBe(false);
    expect(await chain.transfersTo(to)).toBe(1);
    expect(await chain.usdtOf(to)).toBe(3n * USDT);
  }, 150_000);

  it(
    "dropped by the cluster while its blockhash is still valid: " +
      "the same bytes are sent again until they land, never re-signed",
    async () => {
      worker ??= await startOutboundWorker("solana");
      const to = await chain.freshAddress();
      // The first sends and the next re-sends are lost: the candidate is unknown to every node but can still land.
      await chain.dropNext(3, chain.treasury.address);
      const intent = await payout(to, 5n * USDT);
      const done = await waitForStatus(intent.id, "confirmed");
      expect(done.resigns).toBe(0);
      const all = await candidates(intent.id);
      expect(all.map((c) => c.status)).toEqual(["confirmed"]);
      expect(done.txHash).toBe(all[0]!.txHash);
      expect(await chain.transfersTo(to)).toBe(1);
      expect(await chain.usdtOf(to)).toBe(5n * USDT);
    },
  );

  it(
    "a transfer that fails in a program (a frozen recipient) " +
      "is refused by preflight, sent without it, and recorded as reverted",
    async () => {
      const to = await chain.freshAddress();
      await chain.ops.setFrozen(to, true);
      const usdtBefore = await chain.usdtOf(chain.treasury.address);
      const intent = await payout(to, 4n * USDT);
      const done = await waitForStatus(intent.id, "reverted");
      expect(done.feeNative).toBe(SIGNATURE_FEE); // a failed transaction still pays its fee
      expect(done.failure).toMatch(/reverted/);
      const [only] = await candidates(intent.id);
      expect(only!.status).toBe("reverted");
      expect(await chain.usdtOf(to)).toBe(0n);
      expect(await chain.usdtOf(chain.treasury.address)).toBe(usdtBefore);
    },
  );
});

describe("sweeping Solana deposit addresses (the sweeper pays; emptied accounts are closed)", () => {
  let watcher: SpawnedWorker;
  let m: TestMerchant;
  beforeAll(async () => {
    worker ??= await startOutboundWorker("solana");
    [watcher, m] = await Promise.all([startWatcherProcess(["solana"]), newMerchant("Solana sweeps")]);
  }, 60_000);
  afterAll(async () => {
    await watcher?.stop();
  });

  it("sweeps what reaches the threshold exactly, " +
    "closes the settled payments' token accounts (rent to the treasury); dust stays", async () => {
    const [a, b, dust] = await Promise.all(
      ["5.000000", "3.000000", "0.400000"].map((amount) => paidPayment(m, "solana", amount)),
    );
    const treasuryUsdt = await chain.usdtOf(chain.treasury.address);
    const treasurySol = await chain.lamports(chain.treasury.address);
    const merchantBefore = await balanceOf(m.sandboxKey, "solana");
    // Sweeps move custody only: reconcile's gaps (the test's faucet funding of the treasury, if any) stay as they were.
    const reconciledBefore = await reconcileChain("solana");
    const planned = await planSweeps(getDb(), chain.config);
    expect(planned.map((p) => p.address).sort()).toEqual([a, b].sort());
    expect(planned.every((p) => p.topupId === null)).toBe(true); // deposit owners never hold SOL
    for (const p of planned) {
      const sweep = await waitForStatus(p.sweepId, "confirmed", 60_000);
      expect(sweep.options).toMatchObject({ closeAccount: true, rentTo: chain.treasury.address });
      expect(await chain.accountExists(await chain.ataOf(p.address))).toBe(false);
      expect(await chain.lamports(p.address)).toBe(0n);
    }
    expect(await chain.usdtOf(chain.treasury.address)).toBe(treasuryUsdt + 8_000_000n);
    // Both closed accounts' rent came back to the treasury (the sweeper paid the fees).
    expect(await chain.lamports(chain.treasury.address)).toBe(treasurySol + 2n * 2_039_280n);
    expect(await chain.usdtOf(dust!)).toBe(400_000n);
    expect(await balanceOf(m.sandboxKey, "solana")).toEqual(merchantBefore);
    const reconciledAfter = await reconcileChain("solana");
    expect(reconciledAfter).toEqual(reconciledBefore);
    expect(reconciledAfter.alerts).toEqual([]);
  }, 150_000); // Close to a minute under the custody phase's load (57 s once): room for a slower run.
});

describe("payouts on Solana, end to end", () => {
  const s = usePayoutMerchant("solana", "30.000000", { watch: true });
  const recipients = () => ({ freshAddress: chain.freshAddress, tokenOf: chain.usdtOf, decimals: 6 });

  it("pays part of the balance: pending → processing → confirmed; " +
    "the recipient gets exactly it; payout.confirmed arrives", async () => {
    await expectPayoutConfirms(s, "solana", recipients());
  }, 150_000);

  it("refunds: part of a payment to an address and to its sender, pending → processing → succeeded, exact on chain; " +
    "an over-refund is refused; a deny-listed destination fails unsigned, restored, refund.failed", async () => {
    const paid = await paidBySimulate(s.merchant, "solana", "3.000000");
    // The refunds leave the treasury. The file's last test takes the treasury's surplus, and what the treasury
    // lacks of it from one deposit address: the refunded payment's USDT is swept in meanwhile, so the refunds
    // leave the treasury with more than before, not less (custody only: the merchant's balance is untouched).
    const [deposit] = await query<{ derivation_index: number }>(
      getDb(),
      "select derivation_index from payments where id = $1",
      [paid.id],
    );
    const sweep = await sweepToTreasury(
      chain,
      { index: Number(deposit!.derivation_index), owner: paid.depositAddress },
      3n * USDT,
    );
    await expectRefundToAddress(s, "solana", recipients(), paid);
    await expectRefundToSender(s, "solana", recipients(), paid);
    await expectDeniedRefundFails(s, "solana", recipients(), paid);
    await waitForStatus(sweep.id, "confirmed", 60_000);
  }, 240_000);

  it("a transfer that never lands, re-signed until the re-signs run out: " +
    "failed (transfer_expired), refunded once, no transfer; every blockhash expired for good", async () => {
    worker = await expectExhaustedPayoutFails(
      s,
      "solana",
      recipients(),
      {
        // Past the 150-slot window and then the finality depth more,
        // so even `finalized` is past the last valid block height.
        expire: async () => {
          await chain.ops.mine(200);
        },
        refused: async (candidate) => {
          const sent = await chain.driver.broadcast(candidate);
          return !sent.sent && /blockhash/i.test(sent.reason) && !(await chain.known(candidate.txHash));
        },
      },
      worker,
    );
  }, 240_000);

  it("a payout to an owner whose token account is frozen is blocked before signing (destination_frozen): no fee, " +
    "refunded, payout.blocked", async () => {
    await expectFrozenPayoutBlocked(s, "solana", recipients());
  }, 150_000);

  it(
    "refuses a token account as the destination (the USDT would sit " +
      "in an account nobody can spend), and the treasury",
    async () => {
      const tokenAccount = await chain.ataOf(chain.treasury.address); // exists: the file funded the treasury
      expect(await chain.accountExists(tokenAccount)).toBe(true);
      for (const to of [tokenAccount, chain.treasury.address]) {
        const before = await balanceOf(s.merchant.sandboxKey, "solana");
        const refused = await s.createPayout({ to_address: to, amount: "1.000000" });
        expect(refused.status, refused.text).toBe(400);
        expect(refused.json.error).toMatchObject({ type: "invalid_request_error", param: "to_address" });
        expect(await balanceOf(s.merchant.sandboxKey, "solana")).toEqual(before);
      }
    },
  );
});

// Last but one: it leaves the treasury short of what the books hold (the congestion tests after it only pay out).
describe("reconciliation on Solana", () => {
  // Seven CLI processes (reconcile four times, book three), each seconds of CPU to start: 60 s ran out when the
  // custody phase shared both cores with another run (tests/FLAKES.md); eth's and tron's take 150 s too.
  it("USDT taken off the treasury (and a deposit address) outside the service: " +
    "unmatched -1.000000 and a shortfall, exit 3, the job logs both", async () => {
    await expectTreasuryGapAlerts(chain.config, chain.treasury, chain.freshAddress);
  }, 150_000);
});

// The emulator's fee market (sandbox/solana/fee-market.ts): under congestion the other users' traffic pays a
// compute-unit price in every block and a transaction offering less waits. The worker runs with the default cap.
// Last: payouts straight from the treasury, which the reconciliation test's arithmetic would otherwise have to cover.
describe("priority fees under congestion", () => {
  const CAP = 1_000_000n; // SOLANA_MAX_COMPUTE_UNIT_PRICE's default
  const budgetOf = (done: { feeUsage: Record<string, string> | null }) => ({
    units: BigInt(done.feeUsage!.compute_units!),
    limit: BigInt(done.feeUsage!.compute_unit_limit!),
    price: BigInt(done.feeUsage!.compute_unit_price!),
  });
  const broadcastCandidates = (id: string) =>
    waitFor(`${id} broadcast`, async () => {
      const sent = (await candidates(id)).filter((c) => c.broadcastHead !== null);
      return sent.length ? sent : null;
    });
  /** Congestion at `price`, with the recent slots the driver reads already congested. */
  const congest = async (price: bigint) => {
    await chain.ops.congest({ computeUnitPrice: price });
    await chain.ops.mine(20);
  };
  beforeAll(async () => {
    worker ??= await startOutboundWorker("solana");
    await chain.ops.fund(chain.treasury.address, 10n * USDT); // the reconciliation test may have emptied it
  });
  afterEach(async () => {
    await chain.ops.congest({ computeUnitPrice: 0n });
    await chain.dropNext(0, chain.treasury.address);
  });

  it("a payout offers the market's price and lands at once: " +
    "its fee is the signatures plus price × the simulated limit, exactly what the chain took", async () => {
    await congest(40_000n);
    const to = await chain.freshAddress();
    const before = await chain.lamports(chain.treasury.address);
    const intent = await payout(to, USDT);
    const done = await waitForStatus(intent.id, "confirmed", 60_000);
    expect(done.resigns).toBe(0);
    const { units, limit, price } = budgetOf(done);
    expect(price).toBeGreaterThanOrEqual(40_000n);
    expect(price).toBeLessThanOrEqual(CAP);
    expect(units).toBeLessThanOrEqual(limit);
    expect(limit).toBeLessThan(100_000n); // measured, not the runtime's 200,000 per instruction
    expect(done.feeNative).toBe(SIGNATURE_FEE + (price * limit + 999_999n) / 1_000_000n);
    // The treasury paid the fee and the recipient's token account rent, nothing else.
    expect(before - (await chain.lamports(chain.treasury.address))).toBe(done.feeNative! + done.rentPaidNative!);
    expect(await chain.usdtOf(to)).toBe(USDT);
  }, 90_000);

  it("priced above the cap, a payout offers the cap and waits while the congestion lasts: " +
    "no fee spent meanwhile, then the same transaction lands", async () => {
    await congest(2n * CAP);
    const to = await chain.freshAddress();
    const intent = await payout(to, USDT);
    const [sent] = await broadcastCandidates(intent.id);
    await chain.ops.mine(10);
    await new Promise((r) => setTimeout(r, 2_000));
    expect(await chain.known(sent!.txHash)).toBe(false); // held: not in any block
    expect((await outbound(intent.id)).status).toBe("broadcast");
    await chain.ops.congest({ computeUnitPrice: 0n });
    const done = await waitForStatus(intent.id, "confirmed", 60_000);
    expect(done.txHash).toBe(sent!.txHash);
    expect(done.resigns).toBe(0);
    expect(budgetOf(done).price).toBe(CAP);
    expect(await chain.transfersTo(to)).toBe(1);
  }, 90_000);

  it("a candidate that could not land before its blockhash expired " +
    "is re-signed at the market's new price, once", async () => {
    await congest(20_000n);
    // Lost on the way while its blockhash is valid (the emulator's drop), then priced out by a higher congestion.
    await chain.dropNext(100, chain.treasury.address);
    const to = await chain.freshAddress();
    const intent = await payout(to, USDT);
    const [first] = await broadcastCandidates(intent.id);
    const firstPrice = budgetOfSigned(first!.signedTx).unitPrice!;
    expect(firstPrice).toBeGreaterThanOrEqual(20_000n);
    expect(firstPrice).toBeLessThan(300_000n);
    await chain.ops.congest({ computeUnitPrice: 300_000n });
    await chain.dropNext(0, chain.treasury.address);
    // Past its 150-slot window and the finality depth more, all
    // congested: even `finalized` is past its last valid height.
    await chain.ops.mine(200);
    const done = await waitForStatus(intent.id, "confirmed", 90_000);
    expect(done.resigns).toBe(1);
    const all = await candidates(intent.id);
    expect(all.map((c) => c.status)).toEqual(["expired", "confirmed"]);
    const { price } = budgetOf(done);
    expect(price).toBeGreaterThanOrEqual(300_000n);
    expect(price).toBeLessThanOrEqual(CAP);
    expect(await chain.known(first!.txHash)).toBe(false);
    expect(await chain.transfersTo(to)).toBe(1);
    expect(await chain.usdtOf(to)).toBe(USDT);
  }, 150_000);
});
