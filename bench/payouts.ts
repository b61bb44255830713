// `npm run bench:payouts`: payout throughput, latency and fee per chain (eth, bnb, polygon, tron, solana) on the
// sandbox chains (1 s EVM and Tron blocks, 400 ms Solana slots; 4 confirmations on EVM, 19 blocks on Tron, 32
// slots on Solana) with a real worker process (jobs, watchers, outbound leaders).
//
// Setup, all chains at once: one payment per chain of the whole amount, paid from a sandbox wallet and
// confirmed by the watcher (the merchant's `available`), and the treasury funded from the sandbox faucet with
// twice the payouts' total (no payout waits for a sweep, nor for the conservative liquidity count in
// payouts/payout-round.ts; sweeps are kept out with a sandbox threshold no deposit reaches).
// Then, one chain at a time (so chains do not compete for this machine's CPU): BENCH_PAYOUTS (50) payouts of
// 1 USDT, each to a fresh address, created back to back through the functions POST /v1/payouts runs (its
// destination guards, then createPayout in its own transaction; the API's 10/min payout rate limit per key would
// otherwise make this a test of the limiter), then waited for until every one is confirmed.
// - payouts/s: payouts / (the first payout's created_at → the last payout's confirmed_at), both database times.
//   It includes the confirmation depth once, as a user waiting for a batch of payouts sees it.
// - create → broadcast: per payout, payouts.created_at (the start of the transaction that debits the balance,
//   the same as POST /v1/payouts' own) → outbound_candidates.broadcast_at of its transfer's first candidate
//   (recorded when a node has accepted the signed bytes). It spans the execute_payout job (deny-list, review
//   policy, liquidity, the outbound intent), the leader's signing pass and its broadcast. p50/p95, nearest rank.
//   A second table splits it: created_at → the outbound intent's created_at (the job queued the transfer) →
//   the first candidate's created_at (the leader signed it and stored the bytes) → its broadcast_at; and the
//   leader's signing rate over the burst, (payouts − 1) / (first candidate signed → last one signed), the
//   ceiling of a sustained rate once the confirmation depth is paid.
// - create → confirmed: the same start → payouts.confirmed_at (the transfer at the chain's depth).
// - blocks: the distinct blocks (slots) the payouts landed in, over the span from the first to the last.
// - fee per payout: the outbound journal's fee_native (and the receipt's gas on EVM; on Solana the rent of the
//   recipient's new token account, which the treasury pays, apart), against plain token transfers from the
//   treasury measured the same way (an outbound intent with no payout), to a new recipient (as each payout
//   is) and to one that already holds USDT. The Tron sandbox burns no TRX, so its fees are 0.
// - transactions: how many transactions paid them. EVM payouts go in batches (one transaction of the treasury
//   for the payouts waiting together, docs/PAYOUTS.md) unless BENCH_PAYOUT_STRATEGY=single; a batch's fee and
//   gas are shared by its payouts, and its create → broadcast is each member's.
// BENCH_CHAINS=eth,polygon limits the chains; BENCH_DUMP=1 prints every payout's timestamps (stderr); BENCH_COLD=1
// skips the three payouts paid before the burst (on EVM they deploy the PayoutBatcher and approve it, once).
import path from "node:path";
import type { ChainConfig } from "@/lib/chains/chain-config";
import { percentile } from "./chains/stats";
import { freshAddress, small } from "./lib/chain-units";
import type { Owner } from "./lib/payments";
import { plainTransfer, type TransferCost } from "./lib/plain-transfer";
import { runSandboxBench } from "./lib/sandbox-bench";
import { fundForPayouts, type PayoutRound, payoutRound } from "./payouts/payout-round";

const root = path.resolve(import.meta.dirname, "..");
const PAYOUTS = Number(process.env.BENCH_PAYOUTS || 50);
const AMOUNT_UNITS = 1_000_000n; // 1 USDT
const CONFIRMATIONS = 4;
const STRATEGY = process.env.BENCH_PAYOUT_STRATEGY || "batch";
/** Payouts paid before the measured burst (BENCH_COLD=1: none). */
const WARM_UP = process.env.BENCH_COLD === "1" ? 0 : 3;

interface Result {
  config: ChainConfig;
  round?: PayoutRound;
  plain?: { fresh: TransferCost; holder: TransferCost };
  error?: string;
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
const p50p95 = (values: number[]) =>
  values.length ? `${seconds(percentile(values, 50))} / ${seconds(percentile(values, 95))}` : "";
const failed = (err: unknown) => String(err).slice(0, 120);

/**
 * Funds the burst, then pays a few payouts first, as an installation has once it has paid any: on EVM the first
 * batch waits for the PayoutBatcher's deployment and the treasury's approval of it (once per installation,
 * seconds of confirmations), which is not what a burst costs after.
 */
async function setUp(config: ChainConfig, owner: Owner, result: Result) {
  try {
    await fundForPayouts(config, owner, PAYOUTS + WARM_UP, AMOUNT_UNITS);
    if (WARM_UP) await payoutRound(config, owner, WARM_UP, AMOUNT_UNITS);
  } catch (err) {
    result.error = failed(err);
  }
}

function printThroughput(results: Result[]) {
  console.log(
    `${"chain".padEnd(8)} ${"payouts".padStart(7)} ${"created in".padStart(10)} ` +
      `${"1st create→last confirmed".padStart(26)} ${"payouts/s".padStart(9)}  ` +
      `${"create→broadcast p50 / p95".padEnd(27)} ${"create→confirmed p50 / p95".padEnd(27)} ` +
      `${"blocks / span".padStart(13)} ${"txs".padStart(4)}  note`,
  );
  for (const { config, round: r, error } of results) {
    if (!r) {
      console.log(`${config.chain.padEnd(8)} failed: ${error}`);
      continue;
    }
    const notes = [
      r.notConfirmed ? `${r.notConfirmed} not confirmed` : "",
      r.unbroadcast ? `${r.unbroadcast} landed before their broadcast was recorded` : "",
    ].filter(Boolean);
    console.log(
      `${config.chain.padEnd(8)} ${String(r.n).padStart(7)} ${seconds(r.createMs).padStart(10)} ` +
        `${seconds(r.wallMs).padStart(26)} ${((r.n - r.notConfirmed) / (r.wallMs / 1000)).toFixed(2).padStart(9)}  ` +
        `${p50p95(r.toBroadcast).padEnd(27)} ${p50p95(r.toConfirmed).padEnd(27)} ` +
        `${`${r.blocks} / ${r.blockSpan}`.padStart(13)} ${String(r.transactions).padStart(4)}  ${notes.join("; ")}`,
    );
  }
}

/** Where create → broadcast goes, each step's end p50 / p95 since the payout's creation. */
function printSteps(results: Result[]) {
  console.log(
    `\n${"chain".padEnd(8)} ${"create→intent queued (job)".padEnd(27)} ${"create→first candidate signed".padEnd(30)} ` +
      `${"create→broadcast".padEnd(17)} leader signs/s`,
  );
  for (const { config, round: r } of results)
    if (r)
      console.log(
        `${config.chain.padEnd(8)} ${p50p95(r.toQueued).padEnd(27)} ${p50p95(r.toSigned).padEnd(30)} ` +
          `${p50p95(r.toBroadcast).padEnd(17)} ${r.signSpanMs ? ((r.n - 1) / (r.signSpanMs / 1000)).toFixed(1) : ""}`,
      );
}

function printFees(results: Result[]) {
  console.log(
    `\n${"chain".padEnd(8)} ${"what".padEnd(36)} ${"gas".padStart(7)} ` +
      `${"fee (native)".padStart(16)} ${"× plain".padStart(7)}  note`,
  );
  for (const { config, round, plain, error } of results) {
    if (!round || !plain) {
      if (round) console.log(`${config.chain.padEnd(8)} plain transfers failed: ${error}`);
      continue;
    }
    const base = plain.fresh;
    const ratio = (c: TransferCost) =>
      c.gas !== null && base.gas
        ? (Number(c.gas) / Number(base.gas)).toFixed(2)
        : base.fee
          ? (Number(c.fee) / Number(base.fee)).toFixed(2)
          : "—";
    const rows: [string, TransferCost][] = [
      ["payout, to a new recipient (average)", round],
      ["plain transfer, to a new recipient", plain.fresh],
      ["plain transfer, to a holder", plain.holder],
    ];
    for (const [what, c] of rows)
      console.log(
        `${config.chain.padEnd(8)} ${what.padEnd(36)} ${(c.gas?.toString() ?? "").padStart(7)} ` +
          `${small(config.chain, c.fee).padStart(16)} ${ratio(c).padStart(7)}  ` +
          `${c.rent ? `+ ${c.rent} lamports of token account rent` : ""}`,
      );
  }
  console.log(
    "(× plain: against the plain transfer to a new recipient; " +
      "gas ratio on EVM, fee ratio elsewhere; — where the fee is 0.)",
  );
}

await runSandboxBench(
  root,
  {
    env: {
      SANDBOX_CONFIRMATIONS: String(CONFIRMATIONS),
      SANDBOX_SWEEP_THRESHOLD: "1000000",
      SANDBOX_PAYOUT_STRATEGY: STRATEGY,
    },
    workerRoles: "jobs,watchers,outbound",
  },
  async ({ configs, owner }) => {
    console.log(
      `payouts: ${PAYOUTS} payouts of 1 USDT per chain, ` +
        `each to a fresh address, one chain at a time; EVM strategy ${STRATEGY}; ` +
        (WARM_UP
          ? `after ${WARM_UP} paid first (BENCH_COLD=1: a new installation's first burst)`
          : "a new installation's first burst"),
    );
    const results: Result[] = configs.map((config) => ({ config }));
    await Promise.all(results.map((r) => setUp(r.config, owner, r)));
    for (const r of results)
      if (!r.error)
        r.round = await payoutRound(r.config, owner, PAYOUTS, AMOUNT_UNITS).catch((err) => {
          r.error = failed(err);
          return undefined;
        });
    await Promise.all(
      results
        .filter((r) => r.round)
        .map(async (r) => {
          r.plain = await plainTransfer(r.config, freshAddress(r.config)).catch((err) => {
            r.error = failed(err);
            return undefined;
          });
        }),
    );
    printThroughput(results);
    printSteps(results);
    printFees(results);
  },
);
