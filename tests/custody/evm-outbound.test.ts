import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createWalletClient, defineChain, http, type Hex } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { bytesToHex } from "viem";
import { getDb } from "@/lib/platform/db/client";
import { query } from "@/lib/platform/db/query";
import type { SpawnedWorker } from "@/scripts/lib/spawn-worker";
import { planSweeps } from "@/lib/money-out/sweeps/plan-sweeps";
import { newKey, newMerchant, postRetryingBusy, type TestMerchant } from "../helpers/api";
import { checkLedgerConsistency } from "@/lib/books/ledger/check-ledger-consistency";
import { formatAmount } from "@/lib/kernel/amount";
import { balanceOf, startWatcherProcess } from "../helpers/chains";
import { runCli } from "../helpers/run-cli";
import { EvmDriver } from "@/lib/chains/evm/evm-driver";
import type { CandidateRow } from "@/lib/money-out/outbound/outbound-row";
import { paidPayment, reconcileChain } from "./payment-helpers";
import {
  expectExhaustedPayoutFails,
  expectPayoutConfirms,
  units,
  usePayoutMerchant,
  waitForPayout,
} from "./payout-helpers";
import {
  candidates,
  evmChain,
  outbound,
  sendFromTreasury,
  startOutboundWorker,
  waitFor,
  waitForStatus,
  crashWorkerAt,
  RESTART_TEST_MS,
} from "./outbound-helpers";

// bnb: its sandbox USDT has 18 decimals, so amounts are checked exactly in the token's own units.
const CHAIN = "bnb" as const;
const USDT = 10n ** 18n;
let chain: Awaited<ReturnType<typeof evmChain>>;
let worker: SpawnedWorker | undefined;

async function crashedAt(point: "after_sign" | "after_broadcast", send: () => Promise<{ id: string }>) {
  const intent = await crashWorkerAt(CHAIN, worker, point, send);
  worker = undefined;
  return intent;
}

/** A transaction from the treasury that the service did not send (an operator using the key elsewhere). */
async function outsideTransaction(nonce?: number): Promise<Hex> {
  const account = privateKeyToAccount(bytesToHex(chain.treasury.privateKey));
  const wallet = createWalletClient({
    account,
    chain: defineChain({
      id: chain.config.chainId!,
      name: CHAIN,
      nativeCurrency: { name: "n", symbol: "N", decimals: 18 },
      rpcUrls: { default: { http: [chain.config.rpcUrl] } },
    }),
    transport: http(chain.config.rpcUrl),
  });
  return wallet.sendTransaction({ to: account.address, value: 0n, ...(nonce === undefined ? {} : { nonce }) });
}

/** A payout created as the SDK creates it (a busy answer sent again with the same Idempotency-Key). */
const createRetryingBusy = (key: string, body: Record<string, string>) =>
  postRetryingBusy("/v1/payouts", { key, body });

/** Drops the transaction from anvil's pool as soon as it is there; false if it was mined first. */
async function dropWhenPending(hash: string, intentId: string): Promise<boolean> {
  const deadline = Date.now() + 40_000;
  for (let i = 0; Date.now() < deadline; i++) {
    if ((await chain.rpc<unknown>("anvil_dropTransaction", [hash])) === hash) return true;
    if (i % 25 === 0 && ["mined", "confirmed"].includes((await outbound(intentId)).status)) return false;
  }
  throw new Error("the transaction never reached the pool");
}

beforeAll(async () => {
  chain = await evmChain(CHAIN);
  worker = await startOutboundWorker(CHAIN);
  // The leader records the roles and funds their gas on start.
  await waitFor("the roles to be registered and funded", async () => {
    const [row] = await query(getDb(), "select 1 from wallet_roles where mode = 'sandbox' and chain = $1", [CHAIN]);
    return row && (await chain.client.getBalance({ address: chain.treasury.address as Hex })) > 0n;
  });
  await chain.client.waitForTransactionReceipt({ hash: (await chain.fundTreasury(1_000n * USDT)) as Hex });
}, 150_000);

afterAll(async () => {
  await worker?.stop();
});

describe("sweeping bnb deposit addresses (18 decimals, top-up strategy)", () => {
  let watcher: SpawnedWorker;
  let m: TestMerchant;
  beforeAll(async () => {
    [watcher, m] = await Promise.all([startWatcherProcess([CHAIN]), newMerchant("bnb sweeps")]);
  }, 60_000);
  afterAll(async () => {
    await watcher?.stop();
  });

  it("sweeps what reaches the threshold into the treasury, " +
    "exactly in the token's 18 decimals; dust stays", async () => {
    const [a, b, dust] = await Promise.all(
      ["4.000000", "2.250000", "0.300000"].map((amount) => paidPayment(m, CHAIN, amount)),
    );
    const treasuryBefore = await chain.balanceOf(chain.treasury.address);
    const merchantBefore = await balanceOf(m.sandboxKey, CHAIN);
    // Sweeps move custody only: reconcile's gaps (the test's faucet funding of the treasury, if any) stay as they were.
    const reconciledBefore = await reconcileChain(CHAIN);
    const planned = await planSweeps(getDb(), chain.config);
    expect(planned.map((p) => p.address).sort()).toEqual([a, b].sort());
    for (const p of planned) await waitForStatus(p.sweepId, "confirmed", 60_000);
    expect(await chain.balanceOf(chain.treasury.address)).toBe(treasuryBefore + 6_250_000n * 10n ** 12n);
    expect(await chain.balanceOf(a!)).toBe(0n);
    expect(await chain.balanceOf(dust!)).toBe(300_000n * 10n ** 12n);
    expect(await balanceOf(m.sandboxKey, CHAIN)).toEqual(merchantBefore);
    const reconciledAfter = await reconcileChain(CHAIN);
    expect(reconciledAfter).toEqual(reconciledBefore);
    expect(reconciledAfter.alerts).toEqual([]);
    // Two top-ups and two sweeps at 6 confirmations each, under the custody phase's load: close to a minute.
  }, 150_000);
});

describe("outbound EVM transactions (bnb, 18 decimals)", () => {
  it(
    "sends a token transfer from the treasury: signed, broadcast, " + "mined, confirmed at depth, with its fee",
    async () => {
      const to = chain.freshAddress();
      const intent = await sendFromTreasury(CHAIN, chain.treasury.address, to, 12_345_678n * 10n ** 12n);
      const done = await waitForStatus(intent.id, "confirmed");
      expect(await chain.balanceOf(to)).toBe(12_345_678n * 10n ** 12n);
      expect(done.confirmations).toBeGreaterThanOrEqual(6);
      expect(done.feeNative! > 0n).toBe(true);
      const [only] = await candidates(intent.id);
      expect(only!.status).toBe("confirmed");
      expect(done.txHash).toBe(only!.txHash);
    },
  );

  it("treasury show lists each role's address and balances read from the chain", async () => {
    const res = await runCli(["treasury", "show", "--mode", "sandbox", "--json"], process.env);
    expect(res.code, res.stderr).toBe(0);
    const shown = JSON.parse(res.stdout) as { chains: { chain: string; roles: Record<string, string>[] }[] };
    const bnb = shown.chains.find((c) => c.chain === CHAIN)!;
    const treasury = bnb.roles.find((r) => r.role === "treasury")!;
    expect(treasury.address).toBe(chain.treasury.address);
    expect(treasury.path).toBe("m/44'/60'/1'/0/0");
    expect(treasury.usdt).toMatch(/^\d+\.\d{6}$/);
    expect(BigInt(treasury.usdt!.replace(".", "")) * 10n ** 12n).toBe(await chain.balanceOf(chain.treasury.address));
    const sweeper = bnb.roles.find((r) => r.role === "sweeper")!;
    expect(sweeper.address).not.toBe(treasury.address);
    expect(Number(sweeper.native)).toBeGreaterThan(0);
  });

  it(
    "SIGKILL between signing and broadcast: the stored bytes are sent after restart, exactly one transfer",
    async () => {
      const to = chain.freshAddress();
      const intent = await crashedAt("after_sign", () => sendFromTreasury(CHAIN, chain.treasury.address, to, USDT));
      const [signed] = await candidates(intent.id);
      expect(signed!.status).toBe("signed");
      expect((await outbound(intent.id)).status).toBe("signed");
      expect(await chain.pending(signed!.txHash)).toBe(false); // never broadcast
      worker = await startOutboundWorker(CHAIN);
      const done = await waitForStatus(intent.id, "confirmed");
      expect(done.txHash).toBe(signed!.txHash); // the same bytes, not a new signature
      expect(await chain.transfersTo(to)).toBe(1);
      expect(await chain.balanceOf(to)).toBe(USDT);
    },
    RESTART_TEST_MS,
  );

  it(
    "SIGKILL between broadcast and recording it: sending again counts as sent, exactly one transfer",
    async () => {
      const to = chain.freshAddress();
      const intent = await crashedAt("after_broadcast", () =>
        sendFromTreasury(CHAIN, chain.treasury.address, to, 2n * USDT),
      );
      const [candidate] = await candidates(intent.id);
      expect(candidate!.status).toBe("signed"); // the broadcast happened but was never recorded
      worker = await startOutboundWorker(CHAIN);
      const done = await waitForStatus(intent.id, "confirmed");
      expect(done.txHash).toBe(candidate!.txHash);
      expect(await candidates(intent.id)).toHaveLength(1);
      expect(await chain.transfersTo(to)).toBe(1);
    },
    RESTART_TEST_MS,
  );

  it(
    "a transaction stuck below the base fee is replaced with " + "both fees raised ≥ 10 %, and only one lands",
    async () => {
      const to = chain.freshAddress();
      const intent = await crashedAt("after_sign", () =>
        sendFromTreasury(CHAIN, chain.treasury.address, to, 3n * USDT),
      );
      const [first] = await candidates(intent.id);
      // Congestion: the base fee far above what the signed candidate offers, held there block after block until
      // the worker has replaced it, however long its start takes on a loaded machine (left to decay 12.5 % a
      // block, a ×100 fee fell back under the candidate's before a slow start had waited its 3 blocks).
      const congest = async () => {
        await chain.setNextBaseFee(first!.maxFeePerGas! * 100n);
        await chain.mine(1);
      };
      await congest();
      worker = await startOutboundWorker(CHAIN);
      await waitFor(
        "the stuck candidate replaced",
        async () => {
          if ((await candidates(intent.id)).length >= 2) return true;
          await congest();
          return false;
        },
        90_000,
      );
      const done = await waitForStatus(intent.id, "confirmed");
      const all = await candidates(intent.id);
      expect(all.length).toBeGreaterThanOrEqual(2);
      const landed = all.filter((c) => c.status === "confirmed");
      expect(landed).toHaveLength(1);
      expect(done.txHash).toBe(landed[0]!.txHash);
      expect(all.filter((c) => c !== landed[0]).every((c) => c.status === "replaced")).toBe(true);
      expect(new Set(all.map((c) => c.nonce)).size).toBe(1); // every replacement keeps the nonce
      for (let i = 1; i < all.length; i++) {
        expect(all[i]!.maxFeePerGas! * 10n).toBeGreaterThanOrEqual(all[i - 1]!.maxFeePerGas! * 11n);
        expect(all[i]!.maxPriorityFeePerGas! * 10n).toBeGreaterThanOrEqual(all[i - 1]!.maxPriorityFeePerGas! * 11n);
      }
      expect(await chain.transfersTo(to)).toBe(1);
      expect(await chain.balanceOf(to)).toBe(3n * USDT);
    },
  );

  it(
    "a replacement keeps its predecessor's gas limit: " +
      "re-estimated against pending state, it could fall short and revert",
    async () => {
      // The intent the leader sends anyway; here only the driver's preparation of a replacement is looked at.
      const intent = await outbound(
        (await sendFromTreasury(CHAIN, chain.treasury.address, chain.freshAddress(), USDT)).id,
      );
      const signer = privateKeyToAccount(bytesToHex(chain.treasury.privateKey));
      const previous = {
        maxFeePerGas: 2_000_000_000n,
        maxPriorityFeePerGas: 1_000_000_000n,
        signedTx: await signer.signTransaction({
          chainId: chain.config.chainId!,
          type: "eip1559",
          to: intent.toAddress as Hex,
          gas: 123_456n, // not what any estimate of this transfer gives
          maxFeePerGas: 2_000_000_000n,
          maxPriorityFeePerGas: 1_000_000_000n,
          nonce: 0,
        }),
      } as CandidateRow;
      const prepared = await new EvmDriver(chain.config).prepare(intent, previous);
      expect(prepared).toMatchObject({ gas: 123_456n });
      expect(prepared!.maxFeePerGas * 10n).toBeGreaterThanOrEqual(previous.maxFeePerGas! * 11n);
      // The next tests count on the treasury having nothing in flight.
      await waitForStatus(intent.id, "confirmed");
    },
  );

  it("a dropped transaction is sent again, the same bytes", async () => {
    // Anvil takes a transaction only once the base fee is under its max fee, and mines it at the next block:
    // the test drops it in that window, asking in a tight loop; if a block wins the race, it tries again.
    for (let attempt = 1; ; attempt++) {
      const to = chain.freshAddress();
      const intent = await crashedAt("after_sign", () =>
        sendFromTreasury(CHAIN, chain.treasury.address, to, 4n * USDT),
      );
      const [first] = await candidates(intent.id);
      await chain.setNextBaseFee(first!.maxFeePerGas! * 3n);
      await chain.mine(1);
      // No replacement in this run: only resending can get it mined once the base fee has decayed.
      worker = await startOutboundWorker(CHAIN, { OUTBOUND_REPLACE_AFTER_BLOCKS: "1000" });
      if (!(await dropWhenPending(first!.txHash, intent.id))) {
        expect(attempt, "a block mined the transaction before it could be dropped, three times").toBeLessThan(3);
        await waitForStatus(intent.id, "confirmed");
        continue;
      }
      const done = await waitForStatus(intent.id, "confirmed");
      expect(done.txHash).toBe(first!.txHash);
      expect(await candidates(intent.id)).toHaveLength(1);
      expect(await chain.transfersTo(to)).toBe(1);
      return;
    }
  }, 120_000);

  it(
    "a reorganization below the depth sends the mined transaction back to broadcast; " + "it lands again once",
    async () => {
      const to = chain.freshAddress();
      const intent = await sendFromTreasury(CHAIN, chain.treasury.address, to, 5n * USDT);
      const mined = await waitForStatus(intent.id, "mined");
      const head = Number(await chain.rpc<Hex>("eth_blockNumber"));
      // One block more than reaches its block: a block mined between reading the head and the reorg would
      // otherwise leave the transaction's block in place (still far below the 6-block depth).
      await chain.rpc("anvil_reorg", [head - mined.blockNumber! + 2, []]);
      const done = await waitForStatus(intent.id, "confirmed");
      expect(done.txHash).toBe(mined.txHash);
      expect(done.blockHash).not.toBe(mined.blockHash);
      expect(await candidates(intent.id)).toHaveLength(1);
      expect(await chain.transfersTo(to)).toBe(1);
      expect(await chain.balanceOf(to)).toBe(5n * USDT);
    },
  );

  it(
    "nonce drift: a transaction sent from the treasury outside the service is noticed; " + "the next one still lands",
    async () => {
      const receipt = await chain.client.waitForTransactionReceipt({ hash: await outsideTransaction() });
      expect(receipt.status).toBe("success");
      const to = chain.freshAddress();
      const intent = await sendFromTreasury(CHAIN, chain.treasury.address, to, 6n * USDT);
      const done = await waitForStatus(intent.id, "confirmed");
      const count = await chain.client.getTransactionCount({
        address: chain.treasury.address as Hex,
        blockTag: "latest",
      });
      expect(done.nonce).toBe(BigInt(count - 1));
      expect(await chain.transfersTo(to)).toBe(1);
    },
  );

  it(
    "a nonce taken outside the service after signing: " + "provably lost at depth, re-signed once with a new nonce",
    async () => {
      const to = chain.freshAddress();
      const intent = await crashedAt("after_sign", () =>
        sendFromTreasury(CHAIN, chain.treasury.address, to, 7n * USDT),
      );
      const signed = await outbound(intent.id);
      // Someone uses the very nonce the stored candidate holds.
      await chain.client.waitForTransactionReceipt({ hash: await outsideTransaction(Number(signed.nonce)) });
      worker = await startOutboundWorker(CHAIN);
      const done = await waitForStatus(intent.id, "confirmed");
      expect(done.resigns).toBe(1);
      expect(done.nonce! > signed.nonce!).toBe(true);
      const all = await candidates(intent.id);
      expect(all.map((c) => c.status)).toEqual(["expired", "confirmed"]);
      expect(await chain.transfersTo(to)).toBe(1);
      expect(await chain.balanceOf(to)).toBe(7n * USDT);
    },
  );
});

describe("payouts on bnb (18 decimals), end to end", () => {
  const s = usePayoutMerchant(CHAIN, "40.000000", { watch: true });
  const recipients = () => ({ freshAddress: chain.freshAddress, tokenOf: chain.balanceOf, decimals: 18 });

  it("pays part of the balance: pending → processing → confirmed; " +
    "the recipient gets exactly it in 18 decimals; payout.confirmed arrives", async () => {
    await expectPayoutConfirms(s, CHAIN, recipients());
  }, 150_000);

  it("50 payouts created at once: 50 transfers from the treasury on 50 distinct, " +
    "gapless nonces, all confirmed", async () => {
    // The API allows 10 payout calls a minute per key: ten keys send five each, all at once, each as an
    // integrator's client does (the SDK): with an Idempotency-Key, and the service's busy answer (a 500 with
    // Retry-After, when the burst outwaits the pool on a saturated machine) sent again with it.
    const keys = await Promise.all(Array.from({ length: 10 }, () => newKey(s.merchant.id, "sandbox")));
    const before = await balanceOf(s.merchant.sandboxKey, CHAIN);
    const recipientsOf = Array.from({ length: 50 }, () => chain.freshAddress());
    const created = await Promise.all(
      recipientsOf.map((to, i) =>
        createRetryingBusy(keys[i % 10]!.secret, { chain: CHAIN, to_address: to, amount: "0.100000" }),
      ),
    );
    expect(created.filter((c) => c.status !== 200).map((c) => `${c.status} ${c.text}`)).toEqual([]);
    expect((await balanceOf(s.merchant.sandboxKey, CHAIN)).available).toBe(
      formatAmount(units(before.available) - 5_000_000n),
    );
    const ids = created.map((c) => c.json.id as string);
    for (const id of ids) await waitForPayout(id, "confirmed", 180_000);
    const intents = await query<{ nonce: string; tx_hash: string }>(
      getDb(),
      "select nonce::text, tx_hash from outbound_transactions where cause_id = any($1) and status = 'confirmed'",
      [ids],
    );
    expect(intents).toHaveLength(50);
    const nonces = intents.map((i) => Number(i.nonce)).sort((a, b) => a - b);
    expect(new Set(nonces).size).toBe(50);
    expect(nonces.at(-1)! - nonces[0]!).toBe(49);
    // Every recipient got exactly one transfer of exactly 0.1 USDT.
    const received = await Promise.all(
      recipientsOf.map(async (to) => [await chain.transfersTo(to), await chain.balanceOf(to)]),
    );
    expect(received).toEqual(Array(50).fill([1, 100_000n * 10n ** 12n]));
    expect(await checkLedgerConsistency(getDb(), s.merchant.id)).toEqual([]);
  }, 240_000);

  it("a transfer whose nonce is taken every time it is signed, until the re-signs run out: " +
    "failed (transfer_expired), refunded once, no transfer", async () => {
    // On EVM a signed transaction can land until its nonce is used: only a nonce used at depth (here by a
    // transaction sent outside the service) makes a candidate lost, so only then is it re-signed or given up.
    worker = await expectExhaustedPayoutFails(
      s,
      CHAIN,
      recipients(),
      {
        expire: async (candidate) => {
          await chain.client.waitForTransactionReceipt({ hash: await outsideTransaction(Number(candidate.nonce)) });
          await chain.mine(8); // past the worker's 6 confirmations
        },
        refused: async (candidate) => {
          const sent = await chain
            .rpc<string>("eth_sendRawTransaction", [candidate.signedTx as Hex])
            .then(() => "accepted")
            .catch((err: Error) => err.message);
          return (
            /nonce too low/i.test(sent) &&
            (await chain.client.getTransactionReceipt({ hash: candidate.txHash as Hex }).catch(() => null)) === null
          );
        },
      },
      worker,
    );
  }, 240_000);
});
