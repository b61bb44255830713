import path from "node:path";
import { expect } from "vitest";
import type { Chain } from "@/lib/chains/chains";
import { getDb } from "@/lib/platform/db/client";
import { query } from "@/lib/platform/db/query";
import { spawnWorker } from "@/scripts/lib/spawn-worker";
import { api, type TestMerchant } from "../helpers/api";
import { balanceOf } from "../helpers/chains";
import { runCli } from "../helpers/run-cli";
import { evmChain, waitFor } from "../custody/outbound-helpers";
import { solanaChain } from "../custody/solana-helpers";
import { tronChain } from "../custody/tron-helpers";

// What the crash tests share: the worker as production runs it, recipients on every chain, and the checks
// that every payout went out exactly once however often its worker died.

const root = path.resolve(import.meta.dirname, "../..");
export const CHAINS: Chain[] = ["eth", "bnb", "polygon", "tron", "solana"];

/**
 * One worker process (jobs, watchers and outbound leaders of
 * all five chains); a killed one's jobs are freed after 15 s.
 */
export const startWorker = (env: Record<string, string> = {}) =>
  spawnWorker(root, { LOG_LEVEL: process.env.OUTBOUND_TEST_LOG ?? "error", JOB_LOCK_RECOVERY_SECONDS: "15", ...env });

export interface Recipients {
  freshAddress: () => string | Promise<string>;
  tokenOf: (address: string) => Promise<bigint>;
  transfersTo: (address: string) => Promise<number>;
  decimals: number;
}

export async function recipientsOn(chain: Chain): Promise<Recipients> {
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

export interface PlannedPayout {
  chain: Chain;
  to: string;
}

/** Creates the payouts through the API (each call with its own Idempotency-Key); returns their ids. */
export async function createPayouts(keys: string[], planned: PlannedPayout[], amount: string): Promise<string[]> {
  const created = await Promise.all(
    planned.map((p, i) =>
      api("POST", "/v1/payouts", {
        key: keys[i % keys.length]!,
        body: { chain: p.chain, to_address: p.to, amount },
      }),
    ),
  );
  expect(created.map((c) => c.status)).toEqual(Array(planned.length).fill(200));
  return created.map((c) => c.json.id as string);
}

async function waitConfirmed(ids: string[]) {
  const progress = () =>
    query<{ chain: string; status: string; n: number }>(
      getDb(),
      "select chain, status, count(*)::int as n from payouts where id = any($1) group by 1, 2 order by 1, 2",
      [ids],
    );
  await waitFor(
    `all ${ids.length} payouts to be confirmed`,
    async () => {
      const now = await progress();
      if (now.some((r) => r.status === "failed" || r.status === "blocked")) {
        const ended = await query(
          getDb(),
          `select p.id, p.chain, p.status, p.failure_code, o.id as outbound, o.status as transfer, o.failure,
                  o.nonce::text, o.created_at, o.updated_at,
                  (select json_agg(json_build_object('hash', c.tx_hash, 'status', c.status, 'nonce', c.nonce::text,
                                                     'block', c.block_number::text, 'at', c.created_at))
                     from outbound_candidates c where c.outbound_id = o.id) as candidates
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
}

/**
 * Waits for every payout to be confirmed, then checks what a merchant and an operator would: exactly one
 * transfer of exactly the amount reached each recipient, one outbound intent per payout, each payout's event
 * once, the merchant's balance down by exactly the payouts, `ledger check` consistent and `reconcile` clean on
 * all five chains.
 */
export async function expectPaidOutOnce(
  m: TestMerchant,
  recipients: Record<Chain, Recipients>,
  planned: PlannedPayout[],
  ids: string[],
  amountMicros: bigint,
  available: string,
) {
  await waitConfirmed(ids);
  const landed = await Promise.all(
    planned.map(async (p) => ({
      chain: p.chain,
      to: p.to,
      transfers: await recipients[p.chain].transfersTo(p.to),
      received: await recipients[p.chain].tokenOf(p.to),
    })),
  );
  for (const l of landed) {
    const expected = amountMicros * 10n ** BigInt(recipients[l.chain].decimals - 6);
    expect(l).toEqual({ ...l, transfers: 1, received: expected });
  }
  const intents = await query<{ n: number }>(
    getDb(),
    "select count(*)::int as n from outbound_transactions " +
      "where purpose = 'payout' and cause_id = any($1) group by cause_id",
    [ids],
  );
  expect(intents.map((r) => r.n)).toEqual(Array(ids.length).fill(1));
  // Each payout's event once: exactly one payout.confirmed, nothing else said of it twice.
  const said = await query<{ type: string; object_id: string; n: number }>(
    getDb(),
    "select type, object_id, count(*)::int as n from events where object_id = any($1) group by 1, 2",
    [ids],
  );
  expect(said.filter((e) => e.n !== 1)).toEqual([]);
  expect(
    said
      .filter((e) => e.type === "payout.confirmed")
      .map((e) => e.object_id)
      .sort(),
  ).toEqual([...ids].sort());
  for (const chain of CHAINS) expect(await balanceOf(m.sandboxKey, chain)).toEqual({ available, reserved: "0.000000" });

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
}
