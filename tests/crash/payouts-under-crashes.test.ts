import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Chain } from "@/lib/chains/chains";
import { getDb } from "@/lib/db/client";
import { query } from "@/lib/db/query";
import { spawnWorker, type SpawnedWorker } from "@/scripts/lib/spawn-worker";
import { api, newKey, newMerchant, type TestMerchant } from "../helpers/api";
import { balanceOf } from "../helpers/chains";
import { runCli } from "../helpers/run-cli";
import { evmChain, waitFor } from "../custody/outbound-helpers";
import { paidPayment } from "../custody/payment-helpers";
import { solanaChain } from "../custody/solana-helpers";
import { tronChain } from "../custody/tron-helpers";

// This phase owns every sandbox chain (a stack of its own, vitest.crash.config.ts): one worker process, as
// production runs it (jobs, watchers and outbound leaders of all five chains), SIGKILLed at random moments
// while 50 payouts go through liquidity sweeps, signing, broadcast and confirmation.
const root = path.resolve(import.meta.dirname, "../..");
const CHAINS: Chain[] = ["eth", "bnb", "polygon", "tron", "solana"];
const PER_CHAIN = 10;
const KILLS = 5;

interface Recipients {
  freshAddress: () => string | Promise<string>;
  tokenOf: (address: string) => Promise<bigint>;
  transfersTo: (address: string) => Promise<number>;
  decimals: number;
}

async function recipientsOn(chain: Chain): Promise<Recipients> {
  if (chain === "tron") {
    const tron = await tronChain();
    const tokenOf = async (a: string) => (await tron.balances(a)).token;
    return { freshAddress: tron.freshAddress, tokenOf, transfersTo: tron.transfersTo, decimals: 6 };
  }
  if (chain === "solana") {
    const sol = await solanaChain();
    return { freshAddress: sol.freshAddress, tokenOf: sol.usdtOf, transfersTo: sol.transfersTo, decimals: 6 };
  }
  const evm = await evmChain(chain);
  return { ...evm, tokenOf: evm.balanceOf, decimals: evm.config.decimals };
}

// A killed process's jobs are freed after 15 s without its heartbeat (60 s by default).
const startWorker = () =>
  spawnWorker(root, { LOG_LEVEL: process.env.OUTBOUND_TEST_LOG ?? "error", JOB_LOCK_RECOVERY_SECONDS: "15" });

let worker: SpawnedWorker;
let m: TestMerchant;
const recipients = {} as Record<Chain, Recipients>;

beforeAll(async () => {
  [worker, m] = await Promise.all([startWorker(), newMerchant("Payouts under crashes")]);
  for (const chain of CHAINS) recipients[chain] = await recipientsOn(chain);
  // Each chain's balance comes from one payment; the treasuries start empty, so the payouts wait for
  // liquidity and the sweeps they ask for run under the crashes too.
  await Promise.all(CHAINS.map((chain) => paidPayment(m, chain, "25.000000", 120_000)));
}, 240_000);

afterAll(async () => {
  await worker?.stop();
});

describe("50 payouts across the five chains while the worker is SIGKILLed at 5 random moments", () => {
  it("every payout ends confirmed with exactly one transfer on chain; the ledger and the custody books reconcile", async () => {
    const keys = await Promise.all(Array.from({ length: 5 }, () => newKey(m.id, "sandbox")));
    const planned = await Promise.all(
      CHAINS.flatMap((chain) =>
        Array.from({ length: PER_CHAIN }, async () => ({ chain, to: await recipients[chain].freshAddress() })),
      ),
    );
    // The API allows 10 payout calls a minute per key: five keys, ten calls each, all at once.
    const created = await Promise.all(
      planned.map((p, i) =>
        api("POST", "/v1/payouts", {
          key: keys[i % keys.length]!.secret,
          body: { chain: p.chain, to_address: p.to, amount: "1.000000" },
        }),
      ),
    );
    expect(created.map((c) => c.status)).toEqual(Array(planned.length).fill(200));
    const ids = created.map((c) => c.json.id as string);

    // The first kill lands while payouts are being executed (a job of the dead process holds its lock), the
    // other four at random moments in the next 40 s; after each kill the worker starts again at once.
    // CRASH_MOMENTS="4.4,8.6,…" (seconds after the payouts were created) replays a printed schedule instead.
    const start = Date.now();
    const moments = process.env.CRASH_MOMENTS
      ? process.env.CRASH_MOMENTS.split(",").map((s) => Number(s) * 1000)
      : [
          await waitFor("an execute_payout job to be running", async () => {
            const [locked] = await query(
              getDb(),
              "select 1 from graphile_worker.jobs where task_identifier = 'execute_payout' and locked_by is not null",
            );
            return locked && Math.max(1, Date.now() - start);
          }),
          ...Array.from({ length: KILLS - 1 }, () => 1_000 + Math.random() * 39_000).sort((a, b) => a - b),
        ];
    for (const at of moments) {
      await new Promise((r) => setTimeout(r, Math.max(0, start + at - Date.now())));
      await worker.kill();
      worker = await startWorker();
    }
    console.log(`SIGKILL at ${moments.map((ms) => `${(ms / 1000).toFixed(1)} s`).join(", ")}`);

    const progress = () =>
      query<{ chain: string; status: string; n: number }>(
        getDb(),
        "select chain, status, count(*)::int as n from payouts where id = any($1) group by 1, 2 order by 1, 2",
        [ids],
      );
    await waitFor(
      "all 50 payouts to be confirmed",
      async () => {
        const now = await progress();
        if (now.some((r) => r.status === "failed" || r.status === "blocked")) {
          const ended = await query(
            getDb(),
            `select p.id, p.chain, p.status, p.failure_code, o.id as outbound, o.status as transfer, o.failure,
                    o.nonce::text, o.created_at, o.updated_at,
                    (select json_agg(json_build_object('hash', c.tx_hash, 'status', c.status, 'nonce', c.nonce::text,
                                                       'block', c.block_number::text, 'at', c.created_at))
                       from outbound_candidates c where c.outbound_id = o.id) as candidates,
                    (select json_agg(json_build_object('id', s.id, 'purpose', s.purpose, 'status', s.status,
                                                       'block', s.block_number::text, 'at', s.updated_at))
                       from outbound_transactions s where s.chain = p.chain and s.purpose <> 'payout') as others
               from payouts p left join outbound_transactions o on o.id = p.outbound_id
              where p.id = any($1) and p.status in ('failed', 'blocked')`,
            [ids],
          );
          throw new Error(`payouts ended otherwise: ${JSON.stringify(ended)}`);
        }
        return now.every((r) => r.status === "confirmed");
      },
      300_000,
    ).catch(async (err) => {
      throw new Error(`${(err as Error).message}: ${JSON.stringify(await progress())}`);
    });

    // Exactly one transfer reached each recipient, of exactly the amount, in the token's own units.
    const landed = await Promise.all(
      planned.map(async (p) => ({
        chain: p.chain,
        transfers: await recipients[p.chain].transfersTo(p.to),
        received: await recipients[p.chain].tokenOf(p.to),
      })),
    );
    for (const [i, l] of landed.entries()) {
      const expected = 1_000_000n * 10n ** BigInt(recipients[l.chain].decimals - 6);
      expect({ ...l, to: planned[i]!.to }).toEqual({ ...l, to: planned[i]!.to, transfers: 1, received: expected });
    }
    // One outbound intent per payout, however often its worker died.
    const intents = await query<{ n: number }>(
      getDb(),
      "select count(*)::int as n from outbound_transactions where purpose = 'payout' and cause_id = any($1) group by cause_id",
      [ids],
    );
    expect(intents.map((r) => r.n)).toEqual(Array(ids.length).fill(1));
    for (const chain of CHAINS)
      expect(await balanceOf(m.sandboxKey, chain)).toEqual({ available: "15.000000", reserved: "0.000000" });

    const ledger = await runCli(["ledger", "check", "--json"], process.env);
    expect(ledger.code, ledger.stdout + ledger.stderr).toBe(0);
    expect(JSON.parse(ledger.stdout)).toEqual({ consistent: true, problems: [] });
    const reconcile = await runCli(["reconcile", "--mode", "sandbox", "--json"], process.env);
    expect(reconcile.code, reconcile.stdout + reconcile.stderr).toBe(0);
    const report = JSON.parse(reconcile.stdout) as {
      ok: boolean;
      chains: { chain: string; usdt: { unmatched: string; difference: string } }[];
    };
    expect(report.ok).toBe(true);
    expect(report.chains.map((c) => [c.chain, c.usdt.unmatched, c.usdt.difference]).sort()).toEqual(
      CHAINS.map((c) => [c, "0.000000", "0.000000"]).sort(),
    );
  }, 600_000);
});
