import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { checkLedgerConsistency } from "@/lib/books/ledger/check-ledger-consistency";
import type { Chain } from "@/lib/chains/chains";
import { getDb } from "@/lib/platform/db/client";
import { query } from "@/lib/platform/db/query";
import type { SpawnedWorker } from "@/scripts/lib/spawn-worker";
import { waitFor } from "../custody/outbound-helpers";
import { api, newKey, newMerchant, type TestMerchant } from "../helpers/api";
import { createPublicClient, http } from "viem";
import { balanceOf, sandboxChain } from "../helpers/chains";
import { createChainAdapter } from "@/lib/chains/connect/chain-families";
import { reconcileChain } from "../custody/payment-helpers";
import { runCli } from "../helpers/run-cli";
import { CHAINS, startWorker } from "./settled-payouts";

// Deposit addresses on the five real sandbox chains, watched by one worker process running every role (this phase
// owns the chains, one file at a time): every transfer to an address is its own deposit, credited once at the
// chain's depth with its events; dust is held, not credited; a disabled address still credits, flagged; a reorg
// deeper than the depth reverses a credit once; a watcher SIGKILLed inside and right after its scans doubles nothing.
let worker: SpawnedWorker | undefined;
let m: TestMerchant;

beforeAll(async () => {
  [worker, m] = await Promise.all([startWorker(), newMerchant("Deposit addresses on chains")]);
}, 240_000);
afterAll(async () => {
  await worker?.stop();
});

const units = (usdt: string) => BigInt(usdt.replace(".", ""));
const usdt = (n: bigint) => `${n / 1_000_000n}.${(n % 1_000_000n).toString().padStart(6, "0")}`;
/** A key of its own per use: the sends and reads below stay far inside each key's 60 requests a minute. */
const freshKey = async () => (await newKey(m.id, "sandbox")).secret;

/** Every deposit address this file made, for the sweep at the end. */
const madeHere: { id: string; chain: Chain; address: string }[] = [];

async function depositAddress(key: string, chain: Chain) {
  const cus = await api("POST", "/v1/customers", { key, body: { reference: `u-${randomBytes(4).toString("hex")}` } });
  expect(cus.status, cus.text).toBe(200);
  const made = await api("POST", "/v1/deposit_addresses", { key, body: { chain, customer: cus.json.id } });
  expect(made.status, made.text).toBe(200);
  const address = made.json as { id: string; address: string; customer: string };
  madeHere.push({ id: address.id, chain, address: address.address });
  return address;
}
async function send(key: string, id: string, amount: string): Promise<string> {
  const sent = await api("POST", `/v1/sandbox/deposit_addresses/${id}/simulate`, { key, body: { amount } });
  expect(sent.status, sent.text).toBe(200);
  return sent.json.tx_hash;
}
const depositRows = (id: string) =>
  query<{ id: string; status: string; amount: string; tx_hash: string }>(
    getDb(),
    `select id, status, amount_units::text as amount, tx_hash from deposits where deposit_address_id = $1
     order by block_number, log_index`,
    [id],
  );
/** Waits until the address's deposits are `count`, none of them pending. */
const settled = (id: string, count: number, timeoutMs = 120_000) =>
  waitFor(
    `${count} deposits to ${id} to settle`,
    async () => {
      const rows = await depositRows(id);
      return rows.length === count && rows.every((r) => r.status !== "pending") && rows;
    },
    timeoutMs,
  );
async function eventsOf(key: string, addressId: string) {
  const list = await api("GET", "/v1/events?limit=100", { key });
  expect(list.status, list.text).toBe(200);
  return (list.json.data as { type: string; data: { object: any } }[])
    .filter((e) => e.data.object.deposit_address === addressId)
    .reverse();
}

describe.each(CHAINS)("a deposit address on %s", (chain) => {
  it("credits ten transfers as ten deposits, each once with its events; dust is held, not credited", async () => {
    const key = await freshKey();
    const before = units((await balanceOf(key, chain)).available);
    const address = await depositAddress(key, chain);
    const amounts = Array.from({ length: 10 }, (_, i) => usdt(BigInt(i + 1) * 1_100_000n + BigInt(i)));
    const hashes: string[] = [];
    for (const amount of amounts) hashes.push(await send(key, address.id, amount));
    const dustHash = await send(key, address.id, "0.005000");

    const rows = await settled(address.id, 11);
    const total = amounts.reduce((sum, a) => sum + units(a), 0n);
    const listed = await api("GET", `/v1/deposits?deposit_address=${address.id}&limit=100`, { key });
    expect(listed.status, listed.text).toBe(200);
    const deposits = listed.json.data as any[];
    expect(deposits).toHaveLength(11);
    const credited = deposits.filter((d) => d.status === "confirmed");
    expect(credited.map((d) => d.tx_hash).sort()).toEqual([...hashes].sort());
    expect(credited.map((d) => d.amount).sort()).toEqual([...amounts].sort());
    for (const d of credited)
      expect(d).toMatchObject({ chain, customer: address.customer, address: address.address, address_disabled: false });
    expect(deposits.find((d) => d.tx_hash === dustHash)).toMatchObject({
      status: "ignored_below_minimum",
      amount: "0.005000",
      confirmed_at: null,
    });
    expect(rows.filter((r) => r.status === "credited")).toHaveLength(10);

    const now = await api("GET", `/v1/deposit_addresses/${address.id}`, { key });
    expect(now.json).toMatchObject({ amount_credited: usdt(total), amount_received: usdt(total + 5_000n) });
    expect(units((await balanceOf(key, chain)).available) - before).toBe(total);
    // One pending and one confirmed event per deposit, none for the dust.
    const events = await eventsOf(key, address.id);
    for (const type of ["deposit.pending", "deposit.confirmed"]) {
      const ids = events.filter((e) => e.type === type).map((e) => e.data.object.id);
      expect(ids.sort()).toEqual(credited.map((d) => d.id).sort());
    }
    expect(events.filter((e) => e.data.object.tx_hash === dustHash)).toEqual([]);
    expect(await checkLedgerConsistency(getDb(), m.id)).toEqual([]);
  });
});

describe("a disabled deposit address", () => {
  it.each(["tron", "polygon"] as const)("on %s is still watched: its deposit is credited, flagged", async (chain) => {
    const key = await freshKey();
    const address = await depositAddress(key, chain);
    const off = await api("POST", `/v1/deposit_addresses/${address.id}`, { key, body: { status: "disabled" } });
    expect(off.json.status, off.text).toBe("disabled");
    const hash = await send(key, address.id, "2.500000");
    await settled(address.id, 1);
    const [deposit] = (await api("GET", `/v1/deposits?deposit_address=${address.id}`, { key })).json.data;
    expect(deposit).toMatchObject({ tx_hash: hash, status: "confirmed", amount: "2.500000", address_disabled: true });
    const now = await api("GET", `/v1/deposit_addresses/${address.id}`, { key });
    expect(now.json).toMatchObject({ status: "disabled", amount_credited: "2.500000" });
  });
});

describe("a reorganization deeper than the required confirmations", () => {
  it("reverses a credited deposit once: deposit.reversed, the balance taken back, the books consistent", async () => {
    const key = await freshKey();
    const address = await depositAddress(key, "eth");
    const before = units((await balanceOf(key, "eth")).available);
    const hash = await send(key, address.id, "4.000000");
    const [credited] = await settled(address.id, 1);
    expect(credited).toMatchObject({ status: "credited", tx_hash: hash });
    expect(units((await balanceOf(key, "eth")).available) - before).toBe(4_000_000n);

    const [{ block }] = (await query<{ block: string }>(
      getDb(),
      "select block_number::text as block from deposits where id = $1",
      [credited!.id],
    )) as [{ block: string }];
    // Every block from the transfer's up replaced (again, should the chain have mined past the depth meanwhile).
    const client = createPublicClient({ transport: http((await sandboxChain("eth")).rpcUrl) });
    for (let tries = 0; ; tries++) {
      const depth = Number(await client.getBlockNumber()) - Number(block) + 2;
      const reorg = await api("POST", "/v1/sandbox/chains/eth/reorg", { key: m.sandboxKey, body: { depth } });
      expect(reorg.status, reorg.text).toBe(200);
      if (!(await client.getTransactionReceipt({ hash: hash as `0x${string}` }).catch(() => null))) break;
      expect(tries).toBeLessThan(5);
    }
    await waitFor("the deposit to be reversed", async () => (await depositRows(address.id))[0]!.status === "orphaned");

    const got = await api("GET", `/v1/deposits/${credited!.id}`, { key });
    expect(got.json).toMatchObject({ status: "reversed", tx_hash: hash });
    const reversals = await query(getDb(), "select 1 from reorg_reversals where deposit_id = $1", [credited!.id]);
    expect(reversals).toHaveLength(1);
    const reversed = (await eventsOf(key, address.id)).filter((e) => e.type === "deposit.reversed");
    expect(reversed.map((e) => e.data.object.id)).toEqual([credited!.id]);
    expect(units((await balanceOf(key, "eth")).available)).toBe(before);
    expect(await checkLedgerConsistency(getDb(), m.id)).toEqual([]);
  });
});

describe("a watcher SIGKILLed in its scans", () => {
  it("inside a scan's transaction and right after it, again and again: every deposit once, credited once", async () => {
    await worker?.stop();
    worker = undefined;
    const key = await freshKey();
    const chains: Chain[] = ["bnb", "tron", "solana"];
    const addresses = await Promise.all(chains.flatMap((chain) => [1, 2].map(() => depositAddress(key, chain))));
    const sent = new Map<string, string[]>();
    for (const [i, a] of addresses.entries())
      sent.set(a.id, [await send(key, a.id, `1.${i}00000`), await send(key, a.id, `2.${i}00000`)]);

    // Each worker dies in the first scan that records a deposit, alternating the two points, until none is left
    // to record (then it lives: the last one credits what the others recorded).
    const deaths: string[] = [];
    for (let round = 0; round < 8; round++) {
      const at = round % 2 === 0 ? "before_commit" : "after_commit";
      // A watcher may find its deposits before the process says it is ready: a death during the start counts too.
      const started = await startWorker({ WATCH_CRASH_AT: at, WATCH_CHAINS: chains.join(",") }).catch(
        (err: Error) => err,
      );
      const ended =
        started instanceof Error
          ? started.cause
          : await Promise.race([started.exited, new Promise((r) => setTimeout(() => r("alive"), 8_000))]);
      if (ended === "alive" && !(started instanceof Error)) {
        await started.stop();
        break;
      }
      expect(ended).toBe("SIGKILL");
      deaths.push(at);
    }
    expect(deaths.length).toBeGreaterThanOrEqual(2);
    worker = await startWorker();
    for (const a of addresses) {
      const rows = await settled(a.id, 2);
      expect(rows.map((r) => r.status)).toEqual(["credited", "credited"]);
      expect(rows.map((r) => r.tx_hash).sort()).toEqual([...sent.get(a.id)!].sort());
      const events = await eventsOf(key, a.id);
      for (const type of ["deposit.pending", "deposit.confirmed"])
        expect(
          events
            .filter((e) => e.type === type)
            .map((e) => e.data.object.id)
            .sort(),
        ).toEqual(rows.map((r) => r.id).sort());
    }
    // Each deposit moved reserved → available once in the books.
    const credits = await query<{ cause_id: string; n: number }>(
      getDb(),
      `select cause_id, count(*)::int as n from ledger_entries
        where cause_type = 'deposit' and account = 'available' and cause_id = any($1::text[]) group by cause_id`,
      [(await Promise.all(addresses.map((a) => depositRows(a.id)))).flat().map((r) => r.id)],
    );
    expect(credits.map((c) => c.n)).toEqual(Array(addresses.length * 2).fill(1));
    expect(await checkLedgerConsistency(getDb(), m.id)).toEqual([]);
  }, 300_000);
});

describe("a rescan by transaction hash", () => {
  it("finds a deposit the watcher missed (bnb, solana) and credits it once, however often it is asked", async () => {
    await worker?.stop();
    worker = undefined;
    try {
      for (const chain of ["bnb", "solana"] as const) {
        const key = await freshKey();
        const before = units((await balanceOf(key, chain)).available);
        const address = await depositAddress(key, chain);
        const hash = await send(key, address.id, "3.000000");
        const config = await sandboxChain(chain);
        const adapter = createChainAdapter(config);
        const [transfer] = await waitFor("the transfer to be mined", () => adapter.transactionTransfers(hash));
        const deep = await waitFor("the transfer to be deep enough", async () => {
          const head = await adapter.head();
          return head >= transfer!.blockNumber + config.confirmations.required && head;
        });
        const rescan = () => api("POST", "/v1/deposits/rescan", { key, body: { chain, tx_hash: hash } });
        // The watcher (stopped) has not reached the block: the rescan leaves the transfer to it.
        const early = await rescan();
        expect(early.json, early.text).toMatchObject({ recorded: 0, left_to_watcher: 1, deposits: [] });
        // The watcher's cursor past the transfer's block, as a watcher fault (or a restored backup) would leave it.
        await query(
          getDb(),
          `update chain_cursors set block_number = greatest(block_number, $2), block_hash = null
            where mode = 'sandbox' and chain = $1`,
          [chain, deep],
        );

        const first = await rescan();
        expect(first.status, first.text).toBe(200);
        expect(first.json).toMatchObject({ object: "deposit_rescan", chain, recorded: 1, left_to_watcher: 0 });
        expect(first.json.deposits).toEqual([
          expect.objectContaining({
            status: "confirmed",
            amount: "3.000000",
            tx_hash: hash,
            deposit_address: address.id,
          }),
        ]);
        const id = first.json.deposits[0].id;
        expect((await rescan()).json).toMatchObject({ recorded: 0, deposits: [{ id, status: "confirmed" }] });
        const cli = await runCli(
          ["deposits", "rescan", "--mode", "sandbox", "--chain", chain, "--tx", hash, "--json"],
          process.env,
        );
        expect(cli.code, cli.stderr).toBe(0);
        expect(JSON.parse(cli.stdout)).toMatchObject({ recorded: 0, deposits: [{ id }] });

        expect(await depositRows(address.id)).toEqual([expect.objectContaining({ status: "credited", tx_hash: hash })]);
        expect(units((await balanceOf(key, chain)).available) - before).toBe(3_000_000n);
        expect((await eventsOf(key, address.id)).map((e) => e.type)).toEqual(["deposit.pending", "deposit.confirmed"]);
      }
      expect(await checkLedgerConsistency(getDb(), m.id)).toEqual([]);
    } finally {
      worker = await startWorker();
    }
  }, 150_000);
});

describe("sweeping deposit addresses", () => {
  it("the schedule sweeps every address (dust too) into the treasury, each deposit bearing its cost", async () => {
    // Each address holds the deposits the tests above credited: at least the sandbox threshold (1 USDT), except
    // the one whose deposit a reorganization reversed (nothing there to sweep).
    const adapters = new Map<Chain, ReturnType<typeof createChainAdapter>>();
    for (const chain of CHAINS) adapters.set(chain, createChainAdapter(await sandboxChain(chain)));
    const credited = await query<{ id: string; deposit_address_id: string; chain: Chain; status: string }>(
      getDb(),
      `select id, deposit_address_id, chain, status from deposits
        where deposit_address_id = any($1::text[]) and status in ('credited','ignored')`,
      [madeHere.map((a) => a.id)],
    );
    const toSweep = madeHere.filter((a) => credited.some((d) => d.deposit_address_id === a.id));
    expect(toSweep.length).toBeGreaterThanOrEqual(CHAINS.length + 8);
    await waitFor(
      "every deposit address to be swept empty",
      async () => {
        const left = await Promise.all(
          toSweep.map(async (a) => (await adapters.get(a.chain)!.balances(a.address)).token),
        );
        return left.every((token) => token === 0n);
      },
      180_000,
    );
    // A fee is attributed when its transaction reaches the chain's depth: the sweeps (this phase's only ones) settle.
    await waitFor(
      "the sweeps to settle",
      async () =>
        (
          await query(
            getDb(),
            `select 1 from outbound_transactions where purpose in ('sweep', 'sweep_batch', 'gas_topup')
              and status not in ('confirmed', 'reverted', 'expired') limit 1`,
          )
        ).length === 0,
      120_000,
    );
    // Each deposit bore its part of the sweep that collected it (first in, first out: a deposit split between two
    // sweeps bears a part of each), and no intent charged a deposit twice.
    const costs = await query<{ subject_id: string; outbound_id: string; purpose: string }>(
      getDb(),
      `select subject_id, outbound_id, purpose from outbound_costs
        where subject_type = 'deposit' and subject_id = any($1::text[])`,
      [credited.map((d) => d.id)],
    );
    expect(new Set(costs.map((c) => `${c.subject_id} ${c.outbound_id}`)).size).toBe(costs.length);
    // (Dust's share of a fee can round to nothing: a Solana sweep's 5,000 lamports over 60 USDT leave 0.005 USDT none.)
    for (const d of credited.filter((c) => c.status === "credited"))
      expect(
        costs.filter((c) => c.subject_id === d.id && c.purpose.startsWith("sweep")).length,
        `${d.id} ${d.chain}`,
      ).toBeGreaterThan(0);
    for (const chain of CHAINS) {
      const { alerts } = await reconcileChain(chain);
      expect(alerts, chain).toEqual([]);
    }
  }, 240_000);
});
