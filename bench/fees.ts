// `npm run bench:fees`: the TRX that Tron sweeps and payouts cost under each energy strategy, on the sandbox Tron
// chain (mainnet's resource prices and network weights) with a real worker process and the planner run here.
// Per strategy, BENCH_FEE_TRANSFERS (20) deposits are swept into the treasury and as many payouts sent to new
// addresses: first `burn`, then `stake`, for which the treasury first freezes enough TRX for the round's energy
// (its principal stays the treasury's: not a cost). Prints the TRX per purpose, the ratio stake / burn (target
// ≤ 20 %), transfers that failed (target none), and checks every recorded fee against the chain: the node's
// receipt of each transaction, and each swept address's TRX (what it was sent less what it burnt).
// Then Solana under congestion (bench/lib/solana-congestion.ts): BENCH_FEE_SOLANA_PAYOUTS (50) payouts while
// the others' traffic pays 50,000 micro-lamports per unit, raised to 400,000 halfway. BENCH_FEE_CHAINS
// (tron,solana) picks the parts.
import path from "node:path";
import { TronWeb } from "tronweb";
import { formatUnits } from "viem";
import type { ChainConfig } from "@/lib/chains/chain-config";
import { createChainAdapter, sandboxChainOps } from "@/lib/chains/connect/chain-families";
import { tronSandboxInfo } from "@/lib/chains/tron/tron-ops";
import { TronNode } from "@/lib/chains/tron/tron-node";
import { roleKey } from "@/lib/chains/wallets/role-keys";
import type { TronEnergyStrategy } from "@/lib/platform/config/env-schema";
import { getDb } from "@/lib/platform/db/client";
import { query } from "@/lib/platform/db/query";
import { installSignalSink } from "@/lib/platform/metrics/signals";
import { planSweeps } from "@/lib/money-out/sweeps/plan-sweeps";
import { fundTronAddress } from "@/sandbox/tron/tron-sandbox";
import { confirmedAt, type Owner, payPayments } from "./lib/payments";
import { runSandboxBench, type SandboxBench } from "./lib/sandbox-bench";
import { solanaCongestionRound } from "./lib/solana-congestion";
import { treasuryPayout } from "./lib/treasury-payout";
import { sleep, until } from "./lib/wait";

const root = path.resolve(import.meta.dirname, "..");
const N = Number(process.env.BENCH_FEE_TRANSFERS || 20);
const SOLANA_PAYOUTS = Number(process.env.BENCH_FEE_SOLANA_PAYOUTS || 50);
const USDT = 1_000_000n;
const trx = (sun: bigint) => formatUnits(sun, 6);

interface Round {
  strategy: TronEnergyStrategy;
  byPurpose: Map<string, bigint>;
  total: bigint;
  failed: number;
  burntInstead: number;
  mismatches: string[];
}

/** N deposits swept and N payouts to new addresses with one strategy; every intent waited for until it ended. */
async function round(config: ChainConfig, owner: Owner, strategy: TronEnergyStrategy): Promise<Round> {
  const planning = { ...config, tronEnergyStrategy: strategy };
  const paid = await payPayments(config, owner, N);
  await until("payments confirmed", async () => (await confirmedAt(paid)) !== null, 300_000);
  const addresses = new Set(paid.map((p) => p.address));
  let burntInstead = 0;
  installSignalSink((signal) => void (signal === "tron_energy_burnt_instead" && burntInstead++));
  const planned = new Set<string>();
  while (planned.size < addresses.size) {
    for (const p of await planSweeps(getDb(), planning)) planned.add(p.address);
    if (planned.size < addresses.size) await sleep(1_000);
  }
  installSignalSink(null);
  const treasury = await roleKey(getDb(), "sandbox", "tron", "treasury");
  const payouts: { id: string }[] = [];
  for (let i = 0; i < N; i++) payouts.push(await treasuryPayout(config, treasury.address));
  type Row = { id: string; purpose: string; status: string; fee: string | null; tx_hash: string | null; to: string };
  let rows: Row[] = [];
  await until(
    "every sweep, lending and payout ended",
    async () => {
      rows = await query<Row>(
        getDb(),
        `select id, purpose, status, fee_native::text as fee, tx_hash, to_address as to from outbound_transactions
         where cause_id = any($1::text[]) or id = any($2::text[])`,
        [[...addresses], payouts.map((p) => p.id)],
      );
      return rows.every((r) => ["confirmed", "reverted", "expired"].includes(r.status));
    },
    600_000,
  );
  const byPurpose = new Map<string, bigint>();
  for (const r of rows) byPurpose.set(r.purpose, (byPurpose.get(r.purpose) ?? 0n) + BigInt(r.fee ?? 0));
  return {
    strategy,
    byPurpose,
    total: [...byPurpose.values()].reduce((a, b) => a + b, 0n),
    failed: rows.filter((r) => r.status !== "confirmed").length,
    burntInstead,
    mismatches: await checkAgainstChain(config, rows, addresses),
  };
}

/** Each recorded fee is the node's receipt; each swept address holds what it was sent less what it burnt. */
async function checkAgainstChain(
  config: ChainConfig,
  rows: { purpose: string; fee: string | null; tx_hash: string | null; to: string }[],
  addresses: Set<string>,
): Promise<string[]> {
  const node = new TronNode(config);
  const adapter = createChainAdapter(config);
  const wrong: string[] = [];
  for (const r of rows.filter((x) => x.tx_hash)) {
    const info = await node.wallet<{ fee?: number }>("gettransactioninfobyid", { value: r.tx_hash });
    if (BigInt(info.fee ?? 0) !== BigInt(r.fee ?? 0)) wrong.push(`${r.tx_hash}: recorded ${r.fee}, chain ${info.fee}`);
  }
  for (const address of addresses) {
    const [own] = await query<{ sent: string; burnt: string }>(
      getDb(),
      `select coalesce(sum(raw_amount) filter (where purpose = 'gas_topup' and status = 'confirmed'), 0)::text as sent,
              coalesce(sum(fee_native) filter (where purpose = 'sweep'), 0)::text as burnt
       from outbound_transactions where cause_id = $1`,
      [address],
    );
    const held = (await adapter.balances(address)).native;
    if (held !== BigInt(own!.sent) - BigInt(own!.burnt))
      wrong.push(`${address}: holds ${held} sun, sent ${own!.sent} less burnt ${own!.burnt}`);
  }
  return wrong;
}

/** The operator's step: TRX frozen for energy on the treasury, enough for the round's sweeps and payouts. */
async function stakeTreasury(config: ChainConfig): Promise<bigint> {
  const treasury = await roleKey(getDb(), "sandbox", "tron", "treasury");
  const node = new TronNode(config);
  const r = await node.wallet<{ TotalEnergyLimit: number; TotalEnergyWeight: number }>("getaccountresource", {
    address: treasury.address,
    visible: true,
  });
  // Lent with the 30 % margin into a treasury that holds USDT (64,285), paid to new addresses (130,285), + 10 %.
  const energy = BigInt(N) * (83_571n + 130_285n);
  const stakeSun = ((energy * BigInt(r.TotalEnergyWeight) * 11n) / (10n * BigInt(r.TotalEnergyLimit)) + 1n) * USDT;
  await fundTronAddress(tronSandboxInfo(config), treasury.address, { trxSun: stakeSun + 100n * USDT });
  const tw = new TronWeb({ fullHost: config.rpcUrl, privateKey: Buffer.from(treasury.privateKey).toString("hex") });
  const freeze = await tw.transactionBuilder.freezeBalanceV2(Number(stakeSun), "ENERGY", treasury.address);
  const sent = await tw.trx.sendRawTransaction(await tw.trx.sign(freeze));
  if (!sent.result) throw new Error(`the freeze was refused: ${JSON.stringify(sent)}`);
  await until("the freeze mined", async () =>
    Boolean(
      (await node.wallet<{ blockNumber?: number }>("gettransactioninfobyid", { value: freeze.txID })).blockNumber,
    ),
  );
  return stakeSun;
}

const chains = (process.env.BENCH_FEE_CHAINS || "tron,solana").split(",");

await runSandboxBench(root, { env: {}, workerRoles: "watchers,outbound" }, async (bench) => {
  if (chains.includes("tron")) await tronRounds(bench);
  const solana = bench.configs.find((c) => c.chain === "solana");
  if (chains.includes("solana") && solana) await solanaCongestionRound(solana, SOLANA_PAYOUTS, 50_000n, 400_000n);
});

async function tronRounds(bench: SandboxBench) {
  const config = bench.configs.find((c) => c.chain === "tron");
  if (!config) throw new Error("the sandbox Tron chain is not running");
  const treasury = await roleKey(getDb(), "sandbox", "tron", "treasury");
  await (await sandboxChainOps(config)).fund(treasury.address, 2n * BigInt(N) * USDT); // the payouts' USDT
  console.log(`Tron fees: ${N} deposits swept and ${N} payouts to new addresses per strategy (TRX burnt)`);
  const burn = await round(config, bench.owner, "burn");
  const staked = await stakeTreasury(config);
  const stake = await round(config, bench.owner, "stake");
  const purposes = [...new Set([...burn.byPurpose.keys(), ...stake.byPurpose.keys()])].sort();
  console.log(`${"purpose".padEnd(18)} ${"burn".padStart(14)} ${"stake".padStart(14)}`);
  for (const p of purposes)
    console.log(
      `${p.padEnd(18)} ${trx(burn.byPurpose.get(p) ?? 0n).padStart(14)} ` +
        `${trx(stake.byPurpose.get(p) ?? 0n).padStart(14)}`,
    );
  console.log(`${"total".padEnd(18)} ${trx(burn.total).padStart(14)} ${trx(stake.total).padStart(14)}`);
  console.log(
    `stake / burn: ${((Number(stake.total) / Number(burn.total)) * 100).toFixed(1)} % (target ≤ 20 %), ` +
      `${trx(staked)} TRX staked (not a cost)`,
  );
  for (const r of [burn, stake])
    console.log(
      `${r.strategy}: ${r.failed} transfers failed, ${r.burntInstead} sweeps burnt for want of stake, ` +
        (r.mismatches.length
          ? `fees NOT matching the chain: ${r.mismatches.join("; ")}`
          : "every fee equal to the chain's, to the sun"),
    );
}
