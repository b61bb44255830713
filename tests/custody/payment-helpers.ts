import type { JobHelpers } from "graphile-worker";
import { expect, vi } from "vitest";
import { createChainAdapter } from "@/lib/chains/connect/chain-families";
import type { ChainConfig } from "@/lib/chains/chain-config";
import type { Chain } from "@/lib/chains/chains";
import { getDb } from "@/lib/platform/db/client";
import { query } from "@/lib/platform/db/query";
import { reconcileCustodyJob } from "@/worker/jobs/reconcile-custody";
import { log } from "@/lib/platform/log";
import { sandboxChainOps } from "@/lib/chains/connect/chain-families";
import { depositKey } from "@/lib/chains/wallets/role-keys";
import type { SigningKey } from "@/lib/chains/wallets/wallet-roles";
import { api, type TestMerchant } from "../helpers/api";
import { watchPayment } from "../helpers/chains";
import { runCli } from "../helpers/run-cli";
import { waitFor } from "./outbound-helpers";
import { bookNative, expectBooked, faucetFunded, nativeAlert, nativeText, nativeUnits } from "./native-helpers";

/**
 * A payment paid in full from a sandbox wallet (POST /v1/sandbox/payments/:id/simulate) and watched until
 * `confirmed` by the file's watcher; returns its deposit address.
 */
export async function paidPayment(
  m: TestMerchant,
  chain: Chain,
  amount: string,
  timeoutMs = 60_000,
  fields: Record<string, unknown> = {},
): Promise<string> {
  const created = await api("POST", "/v1/payments", { key: m.sandboxKey, body: { amount, chain, ...fields } });
  expect(created.status, created.text).toBe(200);
  const paid = await api("POST", `/v1/sandbox/payments/${created.json.id}/simulate`, { key: m.sandboxKey, body: {} });
  expect(paid.status, paid.text).toBe(200);
  await watchPayment(m.id, created.json.id, (p) => p.status === "confirmed", timeoutMs);
  return created.json.deposit_address as string;
}

/** The fees attributed to the payments on a deposit address (`outbound_costs`), per payment, in native units. */
export async function paymentCosts(address: string) {
  const rows = await query<{ subject_id: string; fee: string }>(
    getDb(),
    `select c.subject_id, sum(c.fee_native)::text as fee from outbound_costs c join payments p on p.id = c.subject_id
      where c.subject_type = 'payment' and p.deposit_address = $1 group by 1 order by 1`,
    [address],
  );
  return rows.map((r) => ({ payment: r.subject_id, fee: BigInt(r.fee) }));
}

/** The sweep intents recorded for a deposit address. */
export function sweepsOf(address: string) {
  return query<{
    id: string;
    status: string;
    raw_amount: string;
    after_id: string | null;
    options: Record<string, unknown>;
  }>(
    getDb(),
    "select id, status, raw_amount::text, after_id, options " +
      "from outbound_transactions where purpose = 'sweep' and from_address = $1",
    [address],
  );
}

/**
 * `reconcile --chain` as the operator runs it: the chain's gaps (what the chain holds beyond the books, and
 * beyond what merchants are owed) and its alerts. The books' own breakdown moves with every sweep.
 */
export async function reconcileChain(chain: Chain) {
  const run = await runCli(["reconcile", "--mode", "sandbox", "--chain", chain, "--json"], process.env);
  const [report] = JSON.parse(run.stdout).chains as ChainReport[];
  const { treasury, sweeper } = report!.gas.roles;
  return {
    unmatched: report!.usdt.unmatched,
    difference: report!.usdt.difference,
    // Each role's native coin against its books: every fee, top-up and faucet funding is booked to the unit.
    native: { treasury: treasury.unmatched, sweeper: sweeper.unmatched },
    alerts: report!.alerts,
  };
}

type RoleNativeReport = Record<"address" | "on_chain" | "staked" | "books" | "settling" | "unmatched", string>;

interface ChainReport {
  usdt: {
    on_chain: { treasury: string; deposit_addresses: string; total: string };
    books: Record<string, string>;
    owed: Record<string, string>;
    settling: string;
    unmatched: string;
    difference: string;
  };
  gas: { roles: Record<"treasury" | "sweeper", RoleNativeReport> };
  alerts: string[];
}

/** `reconcile --chain` in full: the exit code, `ok` and the chain's report. */
export async function reconcileRun(chain: Chain) {
  const run = await runCli(["reconcile", "--mode", "sandbox", "--chain", chain, "--json"], process.env);
  const parsed = JSON.parse(run.stdout) as { ok: boolean; chains: ChainReport[] };
  expect(parsed.chains, run.stdout + run.stderr).toHaveLength(1);
  return { code: run.code, ok: parsed.ok, report: parsed.chains[0]! };
}

/** The `reconcile_custody` job's run on one sandbox chain (in this process): the error lines it logged. */
export async function reconcileJobErrors(chain: Chain) {
  const errors = vi.spyOn(log, "error");
  try {
    await reconcileCustodyJob.handler({ mode: "sandbox", chain }, {} as JobHelpers);
    return errors.mock.calls.map(([message, fields]) => ({ message, fields }));
  } finally {
    errors.mockRestore();
  }
}

const units = (amount: string) => BigInt(amount.replace(".", ""));
const usdt = (u: bigint) => {
  const abs = u < 0n ? -u : u;
  return `${u < 0n ? "-" : ""}${abs / 1_000_000n}.${(abs % 1_000_000n).toString().padStart(6, "0")}`;
};

/**
 * A USDT gap planted outside the service (its keys used elsewhere): USDT moved off the treasury, and off the
 * deposit address the books say holds the most when the treasury alone holds too little. The files fund their
 * treasuries from the faucet, a surplus (positive unmatched, never an alert), so it takes that surplus and
 * 1.000000 more: the books then hold exactly 1.000000 more than the chain. What the operator sees: exit 3,
 * unmatched -1.000000, the shortfall against what merchants are owed, both alerts with their exact amounts, and
 * the job's error line. The sandbox tron and solana tokens have 6 decimals: raw amounts are USDT units.
 */
export async function expectTreasuryGapAlerts(
  config: ChainConfig,
  treasury: SigningKey,
  freshAddress: () => string | Promise<string>,
) {
  const chain = config.chain;
  const adapter = createChainAdapter(config);
  expect(config.decimals).toBe(6);
  // The treasury's native coin to the unit first: the file's own fund calls gave it coins the books do not know
  // (a surplus, never an alert), which the operator books so that what its key spends below shows exactly.
  const unbooked = nativeUnits(chain, (await reconcileRun(chain)).report.gas.roles.treasury.unmatched);
  expect(unbooked).toBeGreaterThanOrEqual(0n);
  if (unbooked > 0n) expectBooked(await bookNative(chain, "treasury", unbooked, { note: "the test's fund calls" }));
  const before = await reconcileRun(chain);
  expect(before.report.gas.roles.treasury).toMatchObject({ unmatched: "0", settling: "0" });
  const nativeBefore = (await adapter.balances(treasury.address)).native;
  const fundedBefore = await faucetFunded(chain, treasury.address);
  expect(before.report.alerts, JSON.stringify(before.report)).toEqual([]);
  expect(before.code).toBe(0);
  expect(before.report.usdt.settling).toBe("0.000000");
  const surplus = units(before.report.usdt.unmatched);
  expect(surplus).toBeGreaterThanOrEqual(0n);
  const moved = surplus + 1_000_000n;
  const onTreasury = units(before.report.usdt.on_chain.treasury);
  const fromTreasury = onTreasury < moved ? onTreasury : moved;
  const fromDeposit = moved - fromTreasury;

  const send = async (key: SigningKey, raw: bigint) => {
    const held = (await adapter.balances(key.address)).token;
    expect(held).toBeGreaterThanOrEqual(raw);
    const tx = await adapter.sendToken(key.privateKey, await freshAddress(), raw);
    await waitFor("the transfer on chain", async () => (await adapter.balances(key.address)).token === held - raw);
    return tx;
  };
  const treasuryTx = fromTreasury > 0n ? await send(treasury, fromTreasury) : null;
  if (fromDeposit > 0n) {
    const [fullest] = await query<{ address: string; derivation_index: number }>(
      getDb(),
      `select c.address, p.derivation_index from custody_entries c join payments p on p.deposit_address = c.address
        where c.mode = 'sandbox' and c.chain = $1 and c.asset = 'usdt' and c.account = 'deposit_addresses'
        group by 1, 2 order by sum(c.amount) desc limit 1`,
      [chain],
    );
    const key = await depositKey(getDb(), "sandbox", chain, Number(fullest!.derivation_index));
    expect(key.address).toBe(fullest!.address);
    await (await sandboxChainOps(config)).fund(key.address, 0n); // the fees of its own transfer
    await send(key, fromDeposit);
  }

  // What the treasury's key spent outside the service (fees; on Solana also the recipient's account rent).
  const spent =
    nativeBefore -
    (await adapter.balances(treasury.address)).native +
    (await faucetFunded(chain, treasury.address)) -
    fundedBefore;
  const after = await reconcileRun(chain);
  expect(after.code).toBe(3);
  expect(after.ok).toBe(false);
  const difference = units(before.report.usdt.difference) - moved;
  expect(difference).toBeLessThan(0n); // (books − owed) − 1.000000: a shortfall too
  expect(after.report.usdt).toEqual({
    ...before.report.usdt,
    on_chain: {
      ...before.report.usdt.on_chain,
      treasury: usdt(onTreasury - fromTreasury),
      deposit_addresses: usdt(units(before.report.usdt.on_chain.deposit_addresses) - fromDeposit),
      total: usdt(units(before.report.usdt.on_chain.total) - moved),
    },
    unmatched: "-1.000000",
    difference: usdt(difference),
  });
  const usdtAlerts = [
    `shortfall: ${usdt(-difference)} USDT less on chain than merchants are owed`,
    "unmatched: 1.000000 USDT less on chain than the custody books hold",
  ];
  expect(after.report.alerts).toEqual([...usdtAlerts, ...(spent > 0n ? [nativeAlert(chain, "treasury", spent)] : [])]);
  expect(after.report.gas.roles.treasury.unmatched).toBe(nativeText(chain, -spent));
  expect(await reconcileJobErrors(chain)).toEqual([
    {
      message: "custody reconciliation found a gap",
      fields: expect.objectContaining({ mode: "sandbox", chain, alerts: after.report.alerts }),
    },
  ]);
  if (spent === 0n) return;
  // The operator books what the key spent (once: the same transaction again is refused); the native gap closes.
  const note = "fees of a transfer made with the treasury's key";
  expectBooked(await bookNative(chain, "treasury", -spent, { tx: treasuryTx!, note }));
  const again = await bookNative(chain, "treasury", -spent, { tx: treasuryTx!, note });
  expect([again.code, JSON.parse(again.stdout).error.message]).toEqual([
    2,
    expect.stringContaining("is booked already for that address"),
  ]);
  const booked = await reconcileRun(chain);
  expect(booked.report.alerts).toEqual(usdtAlerts);
  expect(booked.report.gas.roles.treasury.unmatched).toBe("0");
}
