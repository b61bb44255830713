// `npm run bench:sweeps`: what sweeping a deposit address costs and how long its funds take to reach the
// treasury, per chain and strategy, on the sandbox chains (1 s EVM blocks) with a real worker process
// (watchers and outbound leaders) and the planner run here:
// - the native fee (and EVM gas) per swept deposit: EVM top-up strategy (the top-up and the address's own
//   transfer), batched EIP-7702 sweeps of 1, 10 and 20 addresses, first with their authorizations and again
//   once delegated; the Solana sweep (the sweeper pays); each against one plain token transfer (a payout);
// - payment confirmed → sweep mined (funds in the treasury), p50/p95 over BENCH_SWEEP_PAYMENTS (20) payments
//   per strategy paid 100 ms apart, the planner every BENCH_PLAN_EVERY_MS (1000; the job runs every minute
//   live, which adds up to 60 s).
// BENCH_CHAINS=eth,polygon limits the chains. Tron: a TRX top-up, then the address's own transfer.
import path from "node:path";
import { createChainAdapter } from "@/lib/chains/connect/chain-families";
import type { ChainConfig } from "@/lib/chains/chain-config";
import { resetConfig } from "@/lib/platform/config/env";
import { percentile } from "./chains/stats";
import { freshAddress, small } from "./lib/chain-units";
import { confirmedAt, type Owner, payPayments } from "./lib/payments";
import { plainTransfer } from "./lib/plain-transfer";
import { runSandboxBench } from "./lib/sandbox-bench";
import { payAgain, type RoundResult, sweepRound } from "./sweeps/sweep-rounds";

const root = path.resolve(import.meta.dirname, "..");
const PAYMENTS = Number(process.env.BENCH_SWEEP_PAYMENTS || 20);
const PLAN_EVERY_MS = Number(process.env.BENCH_PLAN_EVERY_MS || 1000);
const CONFIRMATIONS = 4;

interface Row {
  chain: string;
  what: string;
  fee: bigint;
  gas: bigint | null;
  txs?: number;
  latencies?: number[];
  note?: string;
}

let owner: Owner;

function setStrategy(config: ChainConfig, strategy: "topup" | "batch7702") {
  process.env[`${config.chain.toUpperCase()}_SWEEP_STRATEGY`] = strategy;
  resetConfig();
}

/** A round's figures; `timed` rounds ran the planner on its own clock, so their latencies mean something. */
const row = (config: ChainConfig, what: string, r: RoundResult, timed: boolean, note?: string): Row => ({
  chain: config.chain,
  what,
  fee: r.feePerDeposit,
  gas: r.gasPerDeposit,
  txs: r.transactions,
  latencies: timed ? r.latencies : undefined,
  note,
});

async function benchEvm(config: ChainConfig): Promise<Row[]> {
  const rows: Row[] = [];
  setStrategy(config, "topup");
  const topupPaid = await payPayments(config, owner, PAYMENTS);
  const topup = await sweepRound(
    config,
    topupPaid.map((p) => p.address),
    () => confirmedAt(topupPaid),
    PLAN_EVERY_MS,
  );
  const adapter = createChainAdapter(config);
  const left = await Promise.all(topupPaid.map((p) => adapter.balances(p.address)));
  const stranded = left.reduce((sum, b) => sum + b.native, 0n) / BigInt(left.length);
  const plain = (await plainTransfer(config, freshAddress(config))).holder;
  rows.push({ chain: config.chain, what: "plain token transfer (a payout)", fee: plain.fee, gas: plain.gas });
  rows.push(
    row(
      config,
      "top-up, then the address's transfer",
      topup,
      true,
      `${small(config.chain, stranded)} of gas left on each`,
    ),
  );

  setStrategy(config, "batch7702");
  const sets: { n: number; addresses: string[] }[] = [];
  for (const n of [1, 10, 20]) {
    const paid = await payPayments(config, owner, n);
    const r = await sweepRound(
      config,
      paid.map((p) => p.address),
      () => confirmedAt(paid),
      null,
    );
    sets.push({ n, addresses: paid.map((p) => p.address) });
    const deploy = r.deployFee ? `+ the contract's deployment, once: ${small(config.chain, r.deployFee)}` : undefined;
    rows.push(row(config, `batch7702 × ${n}, with authorizations`, r, false, deploy));
  }
  for (const { n, addresses } of sets) {
    await payAgain(config, addresses);
    const now = Date.now();
    const r = await sweepRound(config, addresses, new Map(addresses.map((a) => [a, now])), null);
    rows.push(row(config, `batch7702 × ${n}, already delegated`, r, false));
  }
  const paid = await payPayments(config, owner, PAYMENTS);
  const latency = await sweepRound(
    config,
    paid.map((p) => p.address),
    () => confirmedAt(paid),
    PLAN_EVERY_MS,
  );
  rows.push(row(config, "batch7702, as the planner finds them due", latency, true, `${latency.transactions} batches`));
  return rows;
}

async function benchOther(config: ChainConfig): Promise<Row[]> {
  const paid = await payPayments(config, owner, PAYMENTS);
  const r = await sweepRound(
    config,
    paid.map((p) => p.address),
    () => confirmedAt(paid),
    PLAN_EVERY_MS,
  );
  const plain = (await plainTransfer(config, freshAddress(config))).holder;
  return [
    { chain: config.chain, what: "plain token transfer (a payout)", fee: plain.fee, gas: null },
    row(
      config,
      config.family === "solana" ? "own transfer, the sweeper pays" : "top-up, then the transfer",
      r,
      true,
      config.family === "solana"
        ? "2 signatures; each emptied token account's rent returns to the treasury"
        : undefined,
    ),
  ];
}

function print(rows: Row[]): void {
  console.log(
    `${"chain".padEnd(8)} ${"strategy".padEnd(42)} ${"gas/addr".padStart(9)} ${"fee/addr (native)".padStart(20)} ` +
      `${"× transfer".padStart(10)} ${"txs".padStart(4)}  ${"confirmed→treasury p50 / p95".padEnd(28)} note`,
  );
  for (const chain of new Set(rows.map((r) => r.chain))) {
    const own = rows.filter((r) => r.chain === chain);
    const plain = own.find((r) => r.what.startsWith("plain"));
    for (const r of own) {
      const ratio = !plain
        ? ""
        : r.gas !== null && plain.gas
          ? Number(r.gas) / Number(plain.gas)
          : Number(r.fee) / Number(plain.fee || 1n);
      const lat = r.latencies?.length
        ? `${(percentile(r.latencies, 50) / 1000).toFixed(1)} s / ${(percentile(r.latencies, 95) / 1000).toFixed(1)} s`
        : "";
      console.log(
        `${chain.padEnd(8)} ${r.what.padEnd(42)} ${(r.gas?.toString() ?? "").padStart(9)} ` +
          `${(/^(skipped|failed)/.test(r.what) ? "" : small(chain, r.fee)).padStart(20)} ` +
          `${(typeof ratio === "number" ? ratio.toFixed(2) : "").padStart(10)} ${String(r.txs ?? "").padStart(4)}  ` +
          `${lat.padEnd(28)} ${r.note ?? ""}`,
      );
    }
  }
  console.log(
    `(× transfer: gas ratio on EVM, fee ratio elsewhere. EVM blocks 1 s, ${CONFIRMATIONS} confirmations; ` +
      "the top-up strategy waits for its top-up's confirmations before the address's transfer is signed. " +
      "Live, the planner runs every minute.)",
  );
}

await runSandboxBench(
  root,
  { env: { SANDBOX_CONFIRMATIONS: String(CONFIRMATIONS) }, workerRoles: "watchers,outbound" },
  async (bench) => {
    owner = bench.owner;
    console.log(
      `sweeps: fee per swept deposit and payment confirmed → funds in the treasury, ` +
        `${PAYMENTS} payments per latency round`,
    );
    const results = await Promise.all(
      bench.configs.map((c) =>
        (c.family === "evm" ? benchEvm(c) : benchOther(c)).catch((err): Row[] => [
          { chain: c.chain, what: `failed: ${String(err).slice(0, 80)}`, fee: 0n, gas: null },
        ]),
      ),
    );
    print(results.flat());
  },
);
