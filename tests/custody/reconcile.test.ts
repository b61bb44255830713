import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { anvilAccount } from "@/sandbox/evm/anvil-accounts";
import type { JobHelpers } from "graphile-worker";
import { formatUnits, type Hex, numberToHex } from "viem";
import { createChainAdapter } from "@/lib/chains/connect/chain-families";
import { checkCustodyConsistency } from "@/lib/books/custody/check-custody-consistency";
import { resetConfig } from "@/lib/platform/config/env";
import { getDb, inTransaction } from "@/lib/platform/db/client";
import { query } from "@/lib/platform/db/query";
import { reconcileCustodyJob } from "@/worker/jobs/reconcile-custody";
import { log } from "@/lib/platform/log";
import { planSweeps } from "@/lib/money-out/sweeps/plan-sweeps";
import { depositKey } from "@/lib/chains/wallets/role-keys";
import type { SpawnedWorker } from "@/scripts/lib/spawn-worker";
import { api, newMerchant, type TestMerchant } from "../helpers/api";
import { fundedWallet, startWatcherProcess, watchPayment } from "../helpers/chains";
import { runCli } from "../helpers/run-cli";
import { bookNative, expectBooked, nativeAlert } from "./native-helpers";
import { evmChain, startOutboundWorker, waitForStatus } from "./outbound-helpers";
import { expectFrozenPayoutBlocked, expectPayoutConfirms, usePayoutMerchant } from "./payout-helpers";
import {
  expectBatchedPayouts,
  expectBatchSurvivesCrash,
  expectRevertedBatchOfOneFails,
  expectRevertedBatchRetriesAlone,
  type Leader,
} from "./payout-batch-helpers";
import { expectDelegatedTreasuryMovesOn } from "./payout-batcher-upgrade";

// eth: this file owns its watcher and outbound leader (tests/custody/README.md).
const CHAIN = "eth" as const;
let chain: Awaited<ReturnType<typeof evmChain>>;
let watcher: SpawnedWorker;
let sender: SpawnedWorker;
let m: TestMerchant;

async function paidPayment(amount: string): Promise<string> {
  const created = await api("POST", "/v1/payments", { key: m.sandboxKey, body: { amount, chain: CHAIN } });
  expect(created.status, created.text).toBe(200);
  const paid = await api("POST", `/v1/sandbox/payments/${created.json.id}/simulate`, { key: m.sandboxKey, body: {} });
  expect(paid.status, paid.text).toBe(200);
  await watchPayment(m.id, created.json.id, (p) => p.status === "confirmed", 30_000);
  return created.json.deposit_address as string;
}

async function reconcile() {
  const run = await runCli(["reconcile", "--mode", "sandbox", "--chain", CHAIN, "--json"], process.env);
  const report = JSON.parse(run.stdout);
  expect(report.chains, run.stdout + run.stderr).toHaveLength(1);
  return { code: run.code, report, eth: report.chains[0] };
}

/** Custody entries of some causes, summed per asset and account. */
async function booked(causeIds: string[]) {
  const rows = await query<{ asset: string; account: string; total: string }>(
    getDb(),
    `select asset, account, sum(amount)::text as total from custody_entries where cause_id = any($1) group by 1, 2`,
    [causeIds],
  );
  return Object.fromEntries(rows.map((r) => [`${r.asset}:${r.account}`, BigInt(r.total)]));
}

/** The `reconcile_custody` job's run on eth: the error lines it logged. */
async function jobErrors() {
  const errors = vi.spyOn(log, "error");
  try {
    await reconcileCustodyJob.handler({ mode: "sandbox", chain: CHAIN }, {} as JobHelpers);
    return errors.mock.calls.map(([message, fields]) => ({ message, fields }));
  } finally {
    errors.mockRestore();
  }
}

beforeAll(async () => {
  // The top-up strategy (a top-up and a sweep per address), whose books these tests check step by step;
  // batched sweeps' books are checked by evm-sweeps.test.ts through reconcile too.
  process.env.ETH_SWEEP_STRATEGY = "topup";
  resetConfig();
  [watcher, sender, chain, m] = await Promise.all([
    startWatcherProcess([CHAIN]),
    startOutboundWorker(CHAIN),
    evmChain(CHAIN),
    newMerchant("Reconcile"),
  ]);
}, 150_000);

afterAll(async () => {
  await Promise.all([watcher?.stop(), sender?.stop()]);
  delete process.env.ETH_SWEEP_STRATEGY;
  resetConfig();
});

describe("the installation's own books, reconciled with the chain", () => {
  it("payments: what the deposit addresses hold on chain is what the books hold and merchants are owed", async () => {
    await Promise.all([paidPayment("4.000000"), paidPayment("2.500000"), paidPayment("0.300000")]);
    const { code, report, eth } = await reconcile();
    expect(code).toBe(0);
    expect(report).toMatchObject({ object: "reconciliation", mode: "sandbox", ok: true, problems: [] });
    expect(eth.usdt).toEqual({
      on_chain: { treasury: "0.000000", sweeper: "0.000000", deposit_addresses: "6.800000", total: "6.800000" },
      books: {
        deposit_addresses: "6.800000",
        treasury: "0.000000",
        sweeper: "0.000000",
        in_flight: "0.000000",
        total: "6.800000",
      },
      owed: {
        available: "6.800000",
        reserved: "0.000000",
        payouts_in_flight: "0.000000",
        refunds_in_flight: "0.000000",
        total: "6.800000",
      },
      dust: "0.000000",
      settling: "0.000000",
      unmatched: "0.000000",
      difference: "0.000000",
    });
    expect(eth.deposit_addresses_read).toBe(3);
    expect(eth.alerts).toEqual([]);
  });

  it("sweeps: the books move deposit_addresses → treasury exactly, fees land in gas, nothing unmatched", async () => {
    const planned = await planSweeps(getDb(), chain.config);
    expect(planned).toHaveLength(2);
    for (const p of planned) await waitForStatus(p.sweepId, "confirmed", 60_000);
    const ids = planned.flatMap((p) => [p.sweepId, p.topupId!]);
    const intents = await query<{ purpose: string; raw_amount: string; fee_native: string }>(
      getDb(),
      "select purpose, raw_amount::text, fee_native::text from outbound_transactions where id = any($1)",
      [ids],
    );
    const sum = (purpose: string | null, key: "raw_amount" | "fee_native") =>
      intents.filter((i) => !purpose || i.purpose === purpose).reduce((s, i) => s + BigInt(i[key]), 0n);
    const swept = sum("sweep", "raw_amount");
    expect(swept).toBe(6_500_000n);
    const fees = sum(null, "fee_native");
    expect(fees).toBeGreaterThan(0n);
    const topups = sum("gas_topup", "raw_amount");
    const sweepFees = sum("sweep", "fee_native");
    expect(await booked(ids)).toEqual({
      "usdt:deposit_addresses": -swept,
      "usdt:in_flight": 0n,
      "usdt:treasury": swept,
      "native:sweeper": -(topups + sum("gas_topup", "fee_native")),
      "native:in_flight": 0n,
      "native:deposit_addresses": topups - sweepFees,
      "native:fees": fees,
    });

    const { code, eth } = await reconcile();
    expect(code).toBe(0);
    expect(eth.usdt).toMatchObject({
      on_chain: { treasury: "6.500000", deposit_addresses: "0.300000", total: "6.800000" },
      books: { deposit_addresses: "0.300000", treasury: "6.500000", in_flight: "0.000000", total: "6.800000" },
      owed: { total: "6.800000" },
      unmatched: "0.000000",
      difference: "0.000000",
    });
    expect(eth.deposit_addresses_read).toBe(1); // the dust; the swept addresses hold nothing by the books
    expect(eth.gas.fees_spent).toBe(formatUnits(fees, 18));
    expect(await checkCustodyConsistency(getDb(), "sandbox")).toEqual([]);
    // Native coin to the unit: what the faucet gave each role (booked once landed) less every fee and top-up is
    // exactly what each holds on chain.
    const fundings = await query<{ address: string; amount: string; tx_hash: string }>(
      getDb(),
      "select address, amount::text, tx_hash from custody_fundings " +
        "where mode = 'sandbox' and chain = $1 and source = 'faucet'",
      [CHAIN],
    );
    const roles = [chain.treasury.address, chain.sweeper.address].map((a) => a.toLowerCase());
    expect(new Set(fundings.map((f) => f.address.toLowerCase()))).toEqual(new Set(roles));
    for (const f of fundings) {
      const sent = await chain.client.getTransaction({ hash: f.tx_hash as Hex });
      expect([sent.to, sent.value, f.amount]).toEqual([f.address.toLowerCase(), 10n ** 18n, String(10n ** 18n)]);
    }
    expect(eth.gas.books.funded).toBe(formatUnits(BigInt(fundings.length) * 10n ** 18n, 18));
    for (const role of ["treasury", "sweeper"] as const)
      expect(eth.gas.roles[role]).toEqual({
        address: chain[role].address,
        on_chain: eth.gas[role],
        staked: "0",
        books: eth.gas[role],
        settling: "0",
        unmatched: "0",
      });
  });

  it("tokens taken off the treasury outside the service: a shortfall, an unmatched gap and the gas its key spent, " +
    "exit 3, the job logs an error; the operator books the gas", async () => {
    // First an operator's ETH margin, booked as `cli custody fund` books it: after the transfer below the treasury
    // still holds more than the sandbox faucet's 1 ETH floor, so the leader's faucet has no reason to top it up
    // while this describe reads the native books to the unit (a top-up landed and not yet booked reads as a surplus).
    const margin = 10n ** 18n / 2n;
    const operator = anvilAccount(9).address; // an unlocked development account nothing else in the suite uses
    const funded = await chain.rpc<Hex>("eth_sendTransaction", [
      { from: operator, to: chain.treasury.address, value: `0x${margin.toString(16)}` },
    ]);
    expect((await chain.client.waitForTransactionReceipt({ hash: funded })).status).toBe("success");
    expectBooked(await bookNative(CHAIN, "treasury", margin, { tx: funded, note: "an operator's margin" }));
    const adapter = createChainAdapter(chain.config);
    const hash = await adapter.sendToken(chain.treasury.privateKey, chain.freshAddress(), 1_000_000n);
    const receipt = await chain.client.waitForTransactionReceipt({ hash: hash as Hex });
    const gas = receipt.gasUsed * receipt.effectiveGasPrice; // paid by the treasury, outside the books too

    const { code, report, eth } = await reconcile();
    expect(code).toBe(3);
    expect(report.ok).toBe(false);
    expect(eth.usdt).toMatchObject({
      on_chain: { treasury: "5.500000", total: "5.800000" },
      books: { treasury: "6.500000", total: "6.800000" },
      unmatched: "-1.000000",
      difference: "-1.000000",
    });
    expect(eth.gas.roles.treasury.unmatched).toBe(`-${formatUnits(gas, 18)}`);
    expect(eth.alerts).toEqual([
      "shortfall: 1.000000 USDT less on chain than merchants are owed",
      "unmatched: 1.000000 USDT less on chain than the custody books hold",
      nativeAlert(CHAIN, "treasury", gas),
    ]);

    const errors = vi.spyOn(log, "error");
    try {
      await reconcileCustodyJob.handler({ mode: "sandbox", chain: CHAIN }, {} as JobHelpers);
      expect(errors).toHaveBeenCalledWith(
        "custody reconciliation found a gap",
        expect.objectContaining({ mode: "sandbox", chain: CHAIN, alerts: eth.alerts }),
      );
    } finally {
      errors.mockRestore();
    }

    // The operator books the gas its key spent (`cli custody fund`, negative): the native gap closes to the unit.
    const note = "gas of a transfer made with the treasury's key";
    const booked = expectBooked(await bookNative(CHAIN, "treasury", -gas, { tx: hash.toUpperCase(), note }));
    expect(booked).toMatchObject({
      address: chain.treasury.address,
      amount: `-${formatUnits(gas, 18)}`,
      tx_hash: hash,
    });
    const twice = await bookNative(CHAIN, "treasury", -gas, { tx: hash, note });
    expect([twice.code, JSON.parse(twice.stdout).error.message]).toEqual([
      2,
      expect.stringContaining("is booked already for that address"),
    ]);
    const after = await reconcile();
    expect(after.eth.alerts).toEqual(eth.alerts.slice(0, 2));
    expect(after.eth.gas.roles.treasury.unmatched).toBe("0");
  }, 150_000);

  it(
    "tokens taken off a deposit address outside the service (its key used elsewhere): " +
      "the gap adds to the shortfall, exit 3",
    async () => {
      // The dust payment's address: the books hold 0.300000 USDT on it (the sweeps left it).
      const [dust] = await query<{ deposit_address: string; derivation_index: number }>(
        getDb(),
        "select deposit_address, derivation_index from payments " +
          "where merchant_id = $1 and chain = $2 and amount_units = 300000",
        [m.id, CHAIN],
      );
      const key = await depositKey(getDb(), "sandbox", CHAIN, Number(dust!.derivation_index));
      expect(key.address.toLowerCase()).toBe(dust!.deposit_address.toLowerCase());
      await chain.rpc("anvil_setBalance", [key.address, numberToHex(10n ** 16n)]); // gas for its own transfer
      const hash = await createChainAdapter(chain.config).sendToken(key.privateKey, chain.freshAddress(), 300_000n);
      await chain.client.waitForTransactionReceipt({ hash: hash as Hex });

      const { code, report, eth } = await reconcile();
      expect(code).toBe(3);
      expect(report.ok).toBe(false);
      expect(eth.usdt).toMatchObject({
        on_chain: { treasury: "5.500000", deposit_addresses: "0.000000", total: "5.500000" },
        books: { deposit_addresses: "0.300000", treasury: "6.500000", total: "6.800000" },
        unmatched: "-1.300000",
        difference: "-1.300000",
      });
      expect(eth.deposit_addresses_read).toBe(1);
      expect(eth.alerts).toEqual([
        "shortfall: 1.300000 USDT less on chain than merchants are owed",
        "unmatched: 1.300000 USDT less on chain than the custody books hold",
      ]);
      expect(await jobErrors()).toEqual([
        {
          message: "custody reconciliation found a gap",
          fields: expect.objectContaining({ mode: "sandbox", chain: CHAIN, alerts: eth.alerts }),
        },
      ]);
    },
  );

  it(
    "a surplus (more on chain than the books and than merchants are owed) " + "is reported, never an alert: exit 0",
    async () => {
      // 2.300000 USDT to the treasury from outside any payment (the sandbox faucet): the 1.300000 gap, and 1 more.
      const hash = await chain.fundTreasury(2_300_000n);
      await chain.client.waitForTransactionReceipt({ hash: hash as Hex });

      const { code, report, eth } = await reconcile();
      expect(code, JSON.stringify(report)).toBe(0);
      expect(report.ok).toBe(true);
      expect(eth.usdt).toMatchObject({
        on_chain: { treasury: "7.800000", deposit_addresses: "0.000000", total: "7.800000" },
        books: { total: "6.800000" },
        owed: { total: "6.800000" },
        unmatched: "1.000000",
        difference: "1.000000",
      });
      expect(eth.alerts).toEqual([]);
      expect(await jobErrors()).toEqual([]);
    },
  );

  it("the consistency check finds a journal that does not balance", async () => {
    const rollback = new Error("rollback");
    await expect(
      inTransaction(getDb(), async (tx) => {
        await query(
          tx,
          `insert into custody_entries (journal_id, mode, chain, asset, account, address, amount, cause_type, cause_id)
           values ('cjn_test', 'sandbox', 'eth', 'usdt', 'treasury', null, 5, 'deposit', 'dep_test'),
                  ('cjn_test', 'sandbox', 'eth', 'usdt', 'payers', null, -5, 'deposit', 'dep_test'),
                  ('cjn_test', 'sandbox', 'eth', 'native', 'fees', null, 7, 'deposit', 'dep_test')`,
        );
        expect(await checkCustodyConsistency(tx, "sandbox")).toEqual([
          { kind: "unbalanced_journal", detail: "cjn_test native sums to 7" },
        ]);
        throw rollback;
      }),
    ).rejects.toBe(rollback);
  });
});

describe("payouts on eth, end to end", () => {
  const s = usePayoutMerchant(CHAIN, "30.000000");
  const recipients = () => ({ freshAddress: chain.freshAddress, tokenOf: chain.balanceOf, decimals: 6 });

  it("pays part of the balance: pending → processing → confirmed; " +
    "the recipient gets exactly it; payout.confirmed arrives", async () => {
    await expectPayoutConfirms(s, CHAIN, recipients());
  }, 150_000);

  it("a payout to an address Tether froze is blocked before signing (destination_frozen): " +
    "no fee, refunded, payout.blocked", async () => {
    await expectFrozenPayoutBlocked(s, CHAIN, recipients());
  }, 150_000);

  // eth's payouts are batched in this phase (ETH_PAYOUT_STRATEGY, payout-helpers.ts startJobsWorker).
  const leader: Leader = {
    stop: () => sender.stop(),
    start: async () => {
      sender = await startOutboundWorker(CHAIN);
    },
  };

  it("payouts waiting together go out in one transaction of the treasury: each confirmed with its own event and the " +
    "shared tx_hash, paid exactly once, ≤ 60 % of a single transfer's gas each; one deny-listed meanwhile is " +
    "blocked unsigned", async () => {
    const { perPayout, alone } = await expectBatchedPayouts(s, chain, leader);
    console.log(`eth: a payout in a batch of 20 used ${perPayout} gas, one alone ${alone}`);
  }, 240_000);

  it("a batch that reverts pays nobody: its payouts go back to " +
    "pending and are each sent alone, paid exactly once", async () => {
    await expectRevertedBatchRetriesAlone(s, chain, leader);
  }, 240_000);

  it("a batch of one that reverts fails its payout as a transfer alone " +
    "does (transfer_reverted): refunded, not sent again", async () => {
    await expectRevertedBatchOfOneFails(s, chain, leader);
  }, 180_000);

  it.each(["after_sign", "after_broadcast"] as const)(
    "a batch's worker SIGKILLed %s: its payouts are sent once, from the stored bytes, never re-signed",
    async (point) => {
      await expectBatchSurvivesCrash(s, chain, leader, point);
    },
    180_000,
  );

  it("a treasury delegated by the first design: its open batch is paid through the delegation first, then the " +
    "delegation is cleared through the journal, and payouts go through the allowance", async () => {
    await expectDelegatedTreasuryMovesOn(s, chain, leader);
  }, 300_000);
});

describe("a deposit address Tether froze", () => {
  it("is not swept (an error log), reconcile alerts and cli custody frozen lists it, " +
    "both exit 3; unfrozen, it is swept", async () => {
    const address = await paidPayment("3.000000");
    const same = (a: string) => a.toLowerCase() === address.toLowerCase();
    const setFrozen = async (on: boolean) => {
      const reply = await api("POST", `/v1/sandbox/chains/${CHAIN}/${on ? "freeze" : "unfreeze"}`, {
        key: m.sandboxKey,
        body: { address },
      });
      expect(reply.status, reply.text).toBe(200);
    };
    await setFrozen(true);
    const errors = vi.spyOn(log, "error");
    const [planned, logged] = await planSweeps(getDb(), chain.config)
      .then((p) => [p, [...errors.mock.calls]] as const)
      .finally(() => errors.mockRestore()); // which also forgets the calls
    expect(planned.filter((p) => same(p.address))).toEqual([]);
    for (const p of planned) await waitForStatus(p.sweepId, "confirmed", 60_000);
    expect(logged).toContainEqual([
      "USDT's issuer has frozen a deposit address: it is not swept",
      expect.objectContaining({ chain: CHAIN, address, usdt: "3.000000" }),
    ]);

    const { code, eth } = await reconcile();
    expect(code).toBe(3);
    expect(eth.frozen).toEqual([{ role: "deposit", address: expect.toSatisfy(same), usdt: "3.000000" }]);
    expect(eth.alerts).toContain(
      `frozen: USDT's issuer froze the deposit address ${eth.frozen[0].address} ` +
        `(3.000000 USDT there cannot move; it is not swept)`,
    );
    const listed = await runCli(["custody", "frozen", "--mode", "sandbox", "--chain", CHAIN], process.env);
    expect(listed.code, listed.stderr).toBe(3);
    expect(listed.stdout).toBe(`eth      FROZEN deposit  ${eth.frozen[0].address}  3.000000 USDT\n`);

    await setFrozen(false);
    const clear = await runCli(["custody", "frozen", "--mode", "sandbox", "--chain", CHAIN, "--json"], process.env);
    expect(clear.code, clear.stderr).toBe(0);
    expect(JSON.parse(clear.stdout).chains).toEqual([{ chain: CHAIN, checked: true, frozen: [] }]);
    const swept = (await planSweeps(getDb(), chain.config)).filter((p) => same(p.address));
    expect(swept).toHaveLength(1);
    await waitForStatus(swept[0]!.sweepId, "confirmed", 60_000);
  }, 150_000);
});

// The sandbox freeze control on eth's no-return token kind, here where no test reorganizes eth (the suite's
// tests/sandbox/chain-controls.test.ts covers bnb).
describe("sandbox freeze on eth (the no-return token kind)", () => {
  it("a transfer to a frozen address fails on chain, others go through; unfrozen, it goes through", async () => {
    const payer = await fundedWallet(m.sandboxKey, CHAIN, "10.000000");
    const [frozen, other] = [chain.freshAddress(), chain.freshAddress()];
    const transfer = async (to: string) =>
      (await payer.client.waitForTransactionReceipt({ hash: await payer.send(to, 1_000_000n, { gas: 100_000n }) }))
        .status;
    const setFrozen = async (address: string, on: boolean) => {
      const reply = await api("POST", `/v1/sandbox/chains/${CHAIN}/${on ? "freeze" : "unfreeze"}`, {
        key: m.sandboxKey,
        body: { address },
      });
      expect(reply.status, reply.text).toBe(200);
    };
    await setFrozen(frozen, true);
    expect(await transfer(frozen)).toBe("reverted");
    expect(await transfer(other)).toBe("success");
    expect([await chain.balanceOf(frozen), await chain.balanceOf(other)]).toEqual([0n, 1_000_000n]);
    await setFrozen(frozen, false);
    expect(await transfer(frozen)).toBe("success");
    expect(await chain.balanceOf(frozen)).toBe(1_000_000n);
  });
});

// Last: it stops the outbound leader, whose sandbox faucet would give the treasury its ETH back within seconds.
describe("native gas", () => {
  it("a treasury without the ETH one of its transactions may cost: a gas alert, exit 3, the job logs it", async () => {
    await sender.stop();
    const held = (await createChainAdapter(chain.config).balances(chain.treasury.address)).native;
    await chain.rpc("anvil_setBalance", [chain.treasury.address, "0x0"]);

    const { code, report, eth } = await reconcile();
    expect(code).toBe(3);
    expect(report.ok).toBe(false);
    expect(eth.gas).toMatchObject({ symbol: "ETH", treasury: "0" });
    const needed = eth.gas.needed as string;
    expect(Number(needed)).toBeGreaterThan(0);
    expect(Number(eth.gas.sweeper)).toBeGreaterThanOrEqual(Number(needed)); // the faucet's 1 ETH
    // The USDT surplus left by the test above is still no alert: only the gas is.
    expect(eth.usdt).toMatchObject({ unmatched: "1.000000", difference: "1.000000" });
    // Taken outside the service, so also a native gap of all it held (its books say it still does).
    expect(eth.alerts).toEqual([
      `gas: the treasury holds 0 ETH, less than one of its transactions may cost (${needed} ETH)`,
      nativeAlert(CHAIN, "treasury", held),
    ]);
    const logged = await jobErrors();
    expect(logged).toEqual([
      {
        message: "custody reconciliation found a gap",
        fields: expect.objectContaining({
          mode: "sandbox",
          chain: CHAIN,
          alerts: [
            expect.stringMatching(
              /^gas: the treasury holds 0 ETH, less than one of its transactions may cost \(0\.\d+ ETH\)$/,
            ),
            nativeAlert(CHAIN, "treasury", held),
          ],
        }),
      },
    ]);
  });
});
