import { createChainAdapter } from "@/lib/chains/connect/chain-families";
import { fromUsdtUnits } from "@/lib/chains/chain-adapter";
import type { ChainConfig } from "@/lib/chains/chain-config";
import { getDb, inTransaction } from "@/lib/platform/db/client";
import { query } from "@/lib/platform/db/query";
import { prepareDestinationCheck } from "@/lib/money-out/transfers/check-destination";
import { createPayout } from "@/lib/money-out/payouts/create-payout";
import { sandboxChainOps } from "@/lib/chains/connect/chain-families";
import { roleAddress } from "@/lib/chains/wallets/role-address";
import { freshAddress } from "../lib/chain-units";
import { confirmedAt, type Owner, payPayments } from "../lib/payments";
import { gasUsed } from "../lib/plain-transfer";
import { until } from "../lib/wait";

/** The treasury's extra USDT beyond the payouts: the plain transfers measured afterwards. */
const TREASURY_MARGIN_UNITS = 1_000_000n;

/**
 * A merchant balance and treasury liquidity for `n` payouts of `amountUnits`: one payment of the whole amount,
 * paid from a sandbox wallet and confirmed by the worker's watcher (the real path that credits `available`),
 * and the treasury funded straight from the sandbox faucet (so no payout waits for a sweep). Returns once both
 * are there. The treasury gets twice the payouts' total: execute_payout counts a transfer mined while a payout
 * waited its turn (the chain's payouts execute one at a time) both in the balance and as still owed, never the
 * other way round, so with only the total some payouts of a burst wait 10 s for liquidity they have (see
 * docs/PAYOUTS.md, "Benchmark").
 */
export async function fundForPayouts(config: ChainConfig, owner: Owner, n: number, amountUnits: bigint) {
  const total = amountUnits * BigInt(n);
  const treasury = await roleAddress(getDb(), config.mode, config.chain, "treasury");
  const need = fromUsdtUnits(2n * total + TREASURY_MARGIN_UNITS, config.decimals);
  const adapter = createChainAdapter(config);
  const [paid] = await Promise.all([
    payPayments(config, owner, 1, 0, total),
    (await sandboxChainOps(config)).fund(treasury.address, need),
  ]);
  await until("the funding payment confirmed", async () => (await confirmedAt(paid!)) !== null);
  await until("the treasury funded", async () => (await adapter.balances(treasury.address)).token >= need);
  const [balance] = await query<{ available: string }>(
    getDb(),
    "select available_units::text as available from balances where merchant_id = $1 and mode = $2 and chain = $3",
    [owner.merchantId, owner.mode, config.chain],
  );
  if (BigInt(balance?.available ?? 0) < total)
    throw new Error(`${config.chain}: the merchant's available balance is ${balance?.available ?? 0} units`);
}

export interface PayoutRound {
  n: number;
  /** Bench clock: how long creating the n payouts took (one after another, each in its own transaction). */
  createMs: number;
  /** The first payout's created_at → the last one's confirmed_at (database clock). */
  wallMs: number;
  /** Per payout: created_at → its first candidate's broadcast_at; created_at → confirmed_at. */
  toBroadcast: number[];
  /**
   * Where create → broadcast goes: created_at → its outbound intent's created_at (the execute_payout job) → its first
   * candidate's created_at (signed).
   */
  toQueued: number[];
  toSigned: number[];
  toConfirmed: number[];
  /** The first payout's first candidate signed → the last one's: how fast the chain's leader signs a burst. */
  signSpanMs: number;
  /** Distinct blocks (slots) the payouts landed in, and the span from the first to the last. */
  blocks: number;
  blockSpan: number;
  /** The transactions that paid the confirmed payouts (fewer than the payouts when they went in batches). */
  transactions: number;
  /** Averages over the confirmed payouts: native fee, EVM gas, Solana rent of the recipient's token account. */
  fee: bigint;
  gas: bigint | null;
  rent: bigint;
  /** Payouts that ended other than confirmed (failed, blocked), or were broadcast without a broadcast_at. */
  notConfirmed: number;
  unbroadcast: number;
}

interface Row {
  status: string;
  outbound_id: string | null;
  created_at: Date;
  confirmed_at: Date | null;
  broadcast_at: Date | null;
  queued_at: Date | null;
  signed_at: Date | null;
  fee_native: string | null;
  rent: string;
  tx_hash: string | null;
  block_number: string | null;
}

/**
 * Creates `n` payouts of `amountUnits`, each to a fresh address, back to back through the functions
 * POST /v1/payouts runs (its destination guards, then createPayout in a transaction), and waits until every
 * one is confirmed or has failed.
 */
export async function payoutRound(
  config: ChainConfig,
  owner: Owner,
  n: number,
  amountUnits: bigint,
): Promise<PayoutRound> {
  const ids: string[] = [];
  const started = Date.now();
  for (let i = 0; i < n; i++) {
    const input = { chain: config.chain, to_address: freshAddress(config), amount: amountUnits };
    await (await prepareDestinationCheck(getDb(), owner, input))();
    // As an API key would: the bench measures the engine, not who asked.
    ids.push((await inTransaction(getDb(), (tx) => createPayout(tx, owner, input, { keyId: "key_bench" }))).id);
  }
  const createMs = Date.now() - started;
  await until(
    "every payout confirmed or failed",
    async () => {
      const [row] = await query<{ open: number }>(
        getDb(),
        "select count(*)::int as open from payouts where id = any($1::text[]) " +
          "and status not in ('confirmed','failed','blocked')",
        [ids],
      );
      return row!.open === 0;
    },
    300_000,
  ).catch(async (err: Error) => {
    // Where they stopped: the payouts' states and their transfers' (a bench that fails says why).
    const states = await query<{ payout: string; transfer: string | null; n: number }>(
      getDb(),
      `select p.status as payout, o.status as transfer, count(*)::int as n from payouts p
         left join outbound_transactions o on o.id = p.outbound_id where p.id = any($1::text[]) group by 1, 2`,
      [ids],
    );
    throw new Error(`${err.message}: ${states.map((s) => `${s.n} ${s.payout}/${s.transfer ?? "-"}`).join(", ")}`);
  });
  const rows = await query<Row>(
    getDb(),
    `select p.status, p.outbound_id, p.created_at, p.confirmed_at, o.fee_native::text,
            coalesce(o.rent_paid_native, 0)::text as rent,
            o.tx_hash, o.block_number::text,
            o.created_at as queued_at, first.created_at as signed_at, first.broadcast_at
     from payouts p left join outbound_transactions o on o.id = p.outbound_id
     left join lateral (select c.created_at, c.broadcast_at from outbound_candidates c where c.outbound_id = o.id
                        order by c.id limit 1) first on true
     where p.id = any($1::text[])`,
    [ids],
  );
  const done = rows.filter((r) => r.status === "confirmed");
  const first = Math.min(...rows.map((r) => r.created_at.getTime()));
  const last = Math.max(...done.map((r) => r.confirmed_at!.getTime()));
  const blocks = done.map((r) => Number(r.block_number));
  const count = BigInt(Math.max(1, done.length));
  const sum = (values: bigint[]) => values.reduce((a, b) => a + b, 0n);
  // A batch's transaction carries several payouts: its gas and fee count once, shared by them.
  const transactions = [...new Map(done.map((r) => [r.outbound_id, r])).values()];
  const gas =
    config.family === "evm"
      ? sum(
          await gasUsed(
            config,
            transactions.map((r) => r.tx_hash!),
          ),
        ) / count
      : null;
  const spread = (values: number[]) => (values.length ? Math.max(...values) - Math.min(...values) : 0);
  const since = (at: (r: Row) => Date | null) =>
    rows.filter((r) => at(r)).map((r) => at(r)!.getTime() - r.created_at.getTime());
  if (process.env.BENCH_DUMP) console.error(JSON.stringify(rows, null, 1));
  return {
    n,
    createMs,
    wallMs: last - first,
    toBroadcast: since((r) => r.broadcast_at),
    toQueued: since((r) => r.queued_at),
    toSigned: since((r) => r.signed_at),
    toConfirmed: since((r) => r.confirmed_at),
    signSpanMs: spread(rows.filter((r) => r.signed_at).map((r) => r.signed_at!.getTime())),
    blocks: new Set(blocks).size,
    blockSpan: blocks.length ? Math.max(...blocks) - Math.min(...blocks) + 1 : 0,
    transactions: transactions.length,
    fee: sum(transactions.map((r) => BigInt(r.fee_native ?? 0))) / count,
    gas,
    rent: sum(transactions.map((r) => BigInt(r.rent))) / count,
    notConfirmed: rows.length - done.length,
    unbroadcast: rows.filter((r) => r.tx_hash && !r.broadcast_at).length,
  };
}
