import type { ChainConfig } from "@/lib/chains/chain-config";
import { fromUsdtUnits } from "@/lib/chains/chain-adapter";
import { getDb } from "@/lib/platform/db/client";
import { query } from "@/lib/platform/db/query";
import { sandboxChainOps } from "@/lib/chains/connect/chain-families";
import { planSweeps } from "@/lib/money-out/sweeps/plan-sweeps";
import { gasUsed } from "../lib/plain-transfer";
import { until } from "../lib/wait";

/** Late transfers to addresses already used (their payments confirmed): credited, and due again. */
export async function payAgain(config: ChainConfig, addresses: string[]): Promise<void> {
  const ops = await sandboxChainOps(config);
  const before = await creditedCount(addresses);
  await Promise.all(
    addresses.map((a, i) => ops.payFromSandboxWallet(a, fromUsdtUnits(1_500_000n + BigInt(i), config.decimals))),
  );
  await until("late transfers credited", async () => (await creditedCount(addresses)) >= before + addresses.length);
}

async function creditedCount(addresses: string[]): Promise<number> {
  const [row] = await query<{ n: number }>(
    getDb(),
    `select count(*)::int as n from deposits d join payments p on p.id = d.payment_id
     where p.deposit_address = any($1::text[]) and d.status = 'credited'`,
    [addresses],
  );
  return row!.n;
}

export interface RoundResult {
  /** Native base units paid per swept deposit (top-ups included), and gas per deposit (EVM). */
  feePerDeposit: bigint;
  gasPerDeposit: bigint | null;
  /** Per address: its payment confirmed (or, for a late transfer, planning) → its sweep mined, in ms. */
  latencies: number[];
  transactions: number;
  /** One-time costs seen in the round (the sweeper contract's deployment). */
  deployFee: bigint;
}

/**
 * Sweeps the given addresses with the planner running every `planEveryMs` until all of them are planned (the
 * job runs every minute live), then waits for every sweep to be mined and confirmed. With `planEveryMs` null
 * the planner runs once, after every payment confirmed (a batch of exactly these addresses).
 */
export async function sweepRound(
  config: ChainConfig,
  addresses: string[],
  start: Map<string, number> | (() => Promise<Map<string, number> | null>),
  planEveryMs: number | null,
): Promise<RoundResult> {
  const startOf = typeof start === "function" ? start : async () => start;
  const sweepOf = new Map<string, string>(); // address → sweep intent
  const topups = new Set<string>();
  const minedAt = new Map<string, number>(); // intent → first seen mined
  const wanted = new Set(addresses);
  let starts: Map<string, number> | null = null;
  if (planEveryMs === null) await until("payments confirmed", async () => (starts = await startOf()) !== null);
  let lastPlan = 0;
  await until(
    "every address planned and swept",
    async () => {
      const due = planEveryMs === null ? sweepOf.size < wanted.size : Date.now() - lastPlan >= planEveryMs;
      if (due) {
        lastPlan = Date.now();
        for (const p of await planSweeps(getDb(), config))
          if (wanted.has(p.address)) {
            sweepOf.set(p.address, p.sweepId);
            if (p.topupId) topups.add(p.topupId);
          }
      }
      const rows = await query<{ id: string; status: string }>(
        getDb(),
        "select id, status from outbound_transactions where id = any($1::text[])",
        [[...new Set(sweepOf.values())]],
      );
      const now = Date.now();
      for (const r of rows)
        if ((r.status === "mined" || r.status === "confirmed") && !minedAt.has(r.id)) minedAt.set(r.id, now);
      return sweepOf.size === wanted.size && rows.every((r) => r.status === "confirmed");
    },
    300_000,
  );
  starts ??= await startOf();
  const ids = [...new Set(sweepOf.values()), ...topups];
  const rows = await query<{ fee_native: string; tx_hash: string; after_id: string | null }>(
    getDb(),
    "select fee_native::text, tx_hash, after_id from outbound_transactions where id = any($1::text[])",
    [ids],
  );
  let fee = rows.reduce((sum, r) => sum + BigInt(r.fee_native), 0n);
  let gas: bigint | null = null;
  if (config.family === "evm")
    gas = (
      await gasUsed(
        config,
        rows.map((r) => r.tx_hash),
      )
    ).reduce((sum, g) => sum + g, 0n);
  // A deployment the batches waited for is a one-time cost: reported apart.
  const afters = [...new Set(rows.map((r) => r.after_id).filter((a): a is string => !!a && !topups.has(a)))];
  const deploys = afters.length
    ? await query<{ fee_native: string }>(
        getDb(),
        "select fee_native::text from outbound_transactions where id = any($1::text[]) and purpose = 'deploy'",
        [afters],
      )
    : [];
  const n = BigInt(addresses.length);
  fee = fee / n;
  return {
    feePerDeposit: fee,
    gasPerDeposit: gas === null ? null : gas / n,
    latencies: addresses.map((a) => minedAt.get(sweepOf.get(a)!)! - starts!.get(a)!),
    transactions: new Set(rows.map((r) => r.tx_hash)).size,
    deployFee: deploys.reduce((sum, d) => sum + BigInt(d.fee_native), 0n),
  };
}
