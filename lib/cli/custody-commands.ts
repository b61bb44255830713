import { isChain } from "@/lib/chains/chains";
import type { Db } from "@/lib/platform/db/client";
import { MODES, type Mode } from "@/lib/kernel/mode";
import { defaultSince, parseSince } from "@/lib/money-out/costs/costs-since";
import { type CommandResult, type Flags, required, UsageError } from "./cli-flags";

function modeAndChain(flags: Flags) {
  const mode = required(flags, "mode") as Mode;
  if (!MODES.includes(mode)) throw new UsageError(`--mode must be sandbox or live, got "${mode}"`);
  const chain = typeof flags.chain === "string" ? flags.chain : undefined;
  if (chain !== undefined && !isChain(chain))
    throw new UsageError(`--chain must be one of eth, bnb, polygon, tron, solana, got "${chain}"`);
  return { mode, chain };
}

// These read the chains through every family's client library (viem, TronWeb, @solana/kit): loaded when one
// of them runs, so the CLI's other commands start without them.
const custody = () => import("@/lib/books/custody/show-treasury");
const reconciling = () => import("@/lib/books/custody/reconcile-custody");
const holdings = () => import("@/lib/money-out/sweeps/list-holdings");
const tronResources = () => import("@/lib/books/custody/tron-resources-report");
const costs = () => import("@/lib/money-out/costs/cost-report");
const frozen = () => import("@/lib/books/custody/frozen-custody");
const funding = () => import("@/lib/books/custody/book-operator-funding");

/** --since: a UTC day or an ISO 8601 instant; 30 days ago when absent. */
function sinceOf(flags: Flags): Date {
  if (typeof flags.since !== "string") return defaultSince();
  const date = parseSince(flags.since);
  if (!date)
    throw new UsageError(`--since must be a day (YYYY-MM-DD) or an ISO 8601 instant, got "${flags.since.trim()}"`);
  return date;
}

// The service's own wallets (docs/CUSTODY.md): addresses per role and chain, with balances read from the chains.
export const CUSTODY_COMMANDS: Record<string, (db: Db, flags: Flags) => Promise<CommandResult>> = {
  async "treasury show"(db: Db, flags: Flags): Promise<CommandResult> {
    const mode = required(flags, "mode") as Mode;
    if (!MODES.includes(mode)) throw new UsageError(`--mode must be sandbox or live, got "${mode}"`);
    const treasury = await (await custody()).showTreasury(db, mode);
    return {
      json: treasury,
      text: treasury.chains.flatMap((c) =>
        c.roles.map((r) =>
          "error" in r
            ? `${c.chain.padEnd(8)} ${r.role.padEnd(9)} ${r.address}  ${r.error}`
            : `${c.chain.padEnd(8)} ${r.role.padEnd(9)} ${r.address}  ${r.usdt} USDT  ${r.native} ${r.native_symbol}`,
        ),
      ),
    };
  },

  async "tron resources"(db: Db, flags: Flags): Promise<CommandResult> {
    const mode = required(flags, "mode") as Mode;
    if (!MODES.includes(mode)) throw new UsageError(`--mode must be sandbox or live, got "${mode}"`);
    const report = await (await tronResources()).tronResourcesReport(db, mode);
    if ("error" in report) return { json: report, text: [String(report.error)], exitCode: 1 };
    return {
      json: report,
      text: [
        ...report.roles.flatMap((r) => [
          `${r.role.padEnd(9)} ${r.address}  ${r.trx} TRX; staked ${r.staked_for_energy_trx} for energy, ` +
            `${r.staked_for_bandwidth_trx} for bandwidth; lent ${r.delegated_out_energy_trx} energy stake` +
            (r.delegates_to.length ? ` to ${r.delegates_to.length} account(s)` : ""),
          `${"".padEnd(9)} energy ${r.energy.available} of ${r.energy.limit} left (${r.energy.used} used, recovering ` +
            `over 24 h); bandwidth ${r.bandwidth.free_left} free + ${r.bandwidth.staked_left} staked left` +
            r.unfreezing.map((u) => `; unfreezing ${u.trx} TRX until ${u.withdrawable_at}`).join(""),
        ]),
        `burnt in the last 24 h: ${report.burnt_last_24h.trx} TRX` +
          report.burnt_last_24h.by_purpose.map((p) => `, ${p.purpose} ${p.trx} (${p.transactions})`).join(""),
      ],
    };
  },

  async costs(db: Db, flags: Flags): Promise<CommandResult> {
    const { mode, chain } = modeAndChain(flags);
    const merchantId = typeof flags.merchant === "string" ? flags.merchant : undefined;
    const report = await (await costs()).costReport(db, { mode, since: sinceOf(flags), chain, merchantId });
    const each = (what: string, f: { count: number; total: string; average: string | null }, symbol: string) =>
      f.count ? `${what} ${f.count}: ${f.total} ${symbol} (${f.average} each)` : `${what} 0`;
    return {
      json: report,
      text: report.chains.length
        ? report.chains.map(
            (c) =>
              `${c.chain.padEnd(8)} ${each("payments", c.payments, c.symbol)}; ` +
              `${each("deposits", c.deposits, c.symbol)}; ` +
              `${each("payouts", c.payouts, c.symbol)}; ${each("refunds", c.refunds, c.symbol)}; ` +
              `installation ${c.installation.total} ${c.symbol}; ` +
              `accepting 1 USDT: ${c.accepting_one_usdt ?? "n/a"} ${c.symbol}`,
          )
        : [`no fees recorded since ${report.since}`],
    };
  },

  async "sweeps list"(db: Db, flags: Flags): Promise<CommandResult> {
    const { mode, chain } = modeAndChain(flags);
    const list = await (await holdings()).listHoldings(db, mode, chain);
    return {
      json: list,
      text: list.data.length
        ? list.data.map(
            (h) => `${h.chain.padEnd(8)} ${h.address}  ${h.unswept} USDT  ${h.state} (threshold ${h.threshold})`,
          )
        : ["no unswept deposits"],
    };
  },

  // Exit 3 when USDT's issuer froze an address of the service's, 1 when a chain could not be read.
  async "custody frozen"(db: Db, flags: Flags): Promise<CommandResult> {
    const { mode, chain } = modeAndChain(flags);
    const report = await (await frozen()).listFrozenCustody(db, mode, chain);
    const lines = report.chains.flatMap((c) =>
      "error" in c
        ? [`${c.chain.padEnd(8)} ${c.error}`]
        : !c.checked
          ? [`${c.chain.padEnd(8)} its USDT has no freeze the service reads`]
          : c.frozen.length
            ? c.frozen.map((f) => `${c.chain.padEnd(8)} FROZEN ${f.role.padEnd(8)} ${f.address}  ${f.usdt} USDT`)
            : [`${c.chain.padEnd(8)} nothing frozen`],
    );
    const anyFrozen = report.chains.some((c) => "frozen" in c && c.frozen.length > 0);
    const unread = report.chains.some((c) => "error" in c);
    return { json: report, text: lines, exitCode: anyFrozen ? 3 : unread ? 1 : 0 };
  },

  // Native coin given to (or taken from) the treasury or the sweeper outside the service, booked (docs/CUSTODY.md).
  async "custody fund"(db: Db, flags: Flags): Promise<CommandResult> {
    const { mode, chain } = modeAndChain(flags);
    if (!chain) throw new UsageError("--chain is required");
    const role = required(flags, "role");
    if (role !== "treasury" && role !== "sweeper")
      throw new UsageError(`--role must be treasury or sweeper, got "${role}"`);
    const { parseNativeAmount, bookOperatorFunding, FundingAlreadyBooked } = await funding();
    const text = required(flags, "amount");
    const amount = parseNativeAmount(chain, text);
    if (amount === null || amount === 0n)
      throw new UsageError(
        `--amount must be a non-zero amount of ${chain}'s native coin (e.g. 1.5, ` +
          `or -0.25 for coins taken out), got "${text}"`,
      );
    const txHash = typeof flags.tx === "string" && flags.tx.trim() ? flags.tx.trim() : null;
    const note = typeof flags.note === "string" && flags.note.trim() ? flags.note.trim() : null;
    const booked = await bookOperatorFunding(db, { mode, chain, role, amount, txHash, note }).catch((err: unknown) => {
      if (err instanceof FundingAlreadyBooked) throw new UsageError(`${err.message}: nothing booked`);
      throw err;
    });
    return {
      json: booked,
      text: [`booked ${booked.amount} ${booked.symbol} for the ${role} ${booked.address} on ${chain} (${booked.id})`],
    };
  },

  // Exit 3 when it finds a shortfall, less on chain than the books hold, or inconsistent books (docs/CUSTODY.md).
  async reconcile(db: Db, flags: Flags): Promise<CommandResult> {
    const { mode, chain } = modeAndChain(flags);
    const report = await (await reconciling()).reconcileCustody(db, mode, chain);
    const lines = report.chains.flatMap((c) =>
      "error" in c
        ? [`${c.chain.padEnd(8)} ${c.error}`]
        : [
            `${c.chain.padEnd(8)} USDT on chain ${c.usdt.on_chain.total}, ` +
              `books ${c.usdt.books.total}, owed ${c.usdt.owed.total}; unmatched ${c.usdt.unmatched}, ` +
              `difference ${c.usdt.difference}, settling ${c.usdt.settling}`,
            `${"".padEnd(8)} gas: treasury ${c.gas.treasury} ${c.gas.symbol}, ` +
              `sweeper ${c.gas.sweeper} ${c.gas.symbol}, fees spent ${c.gas.fees_spent} ${c.gas.symbol}`,
            ...(["treasury", "sweeper"] as const).map((role) => {
              const r = c.gas.roles[role];
              return (
                `${"".padEnd(8)} ${role}: ${r.on_chain} ${c.gas.symbol} on chain, books ${r.books}; ` +
                `unmatched ${r.unmatched}, settling ${r.settling}`
              );
            }),
            ...c.alerts.map((a) => `${"".padEnd(8)} ALERT ${a}`),
          ],
    );
    return {
      json: report,
      text: [...lines, ...report.problems.map((p) => `custody books: ${p.kind}: ${p.detail}`)],
      exitCode: report.ok ? 0 : 3,
    };
  },
};
