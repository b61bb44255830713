import { familyTraits } from "@/lib/chains/family-traits";
import { formatUnits } from "viem";
import { createChainAdapter } from "@/lib/chains/connect/chain-families";
import { toUsdtUnits } from "@/lib/chains/chain-adapter";
import type { ChainConfig } from "@/lib/chains/chain-config";
import type { Chain } from "@/lib/chains/chains";
import type { Db } from "@/lib/platform/db/client";
import { formatAmount } from "@/lib/kernel/amount";
import type { Mode } from "@/lib/kernel/mode";
import { roleAddress } from "@/lib/chains/wallets/role-address";
import { addressKey } from "@/lib/chains/address-key";
import { checkCustodyConsistency } from "./check-custody-consistency";
import { readCustodyBooks } from "./custody-books";
import { gasNeeded, nativeStaked } from "@/lib/chains/connect/chain-families";
import { CHAIN_SPECS } from "@/lib/chains/chain-registry";
import { modeChainConfigs } from "./show-treasury";
import { frozenCustody } from "./frozen-custody";
import { nativeAlert, reconcileRoleNative, type RoleNativeReconciliation } from "./reconcile-native";

const PARALLEL_READS = 8;

/**
 * One chain's reconciliation (docs/CUSTODY.md, "Reconciliation"): the books first (one snapshot), then the chain
 * at its head: USDT on every deposit address the books say holds some, the sweeper and the treasury; against the
 * custody books (`unmatched`) and what merchants are owed (`difference`; negative is a shortfall). `alerts` name
 * what an operator must look at: a shortfall, or less on chain than the books say, beyond what is `settling`; or
 * a treasury or sweeper with less native coin than one of its transactions may cost (`gas`), or less than its
 * native books hold beyond what is settling (`native`); an address of the service's that USDT's issuer has frozen
 * (`frozen`: its USDT cannot move, and it is not swept).
 */
export async function reconcileChain(db: Db, config: ChainConfig) {
  const { mode, chain, decimals } = config;
  const [treasury, sweeper] = await Promise.all([
    roleAddress(db, mode, chain, "treasury"),
    roleAddress(db, mode, chain, "sweeper"),
  ]);
  // Solana: the sweeper pays its deposit addresses' fees (and any rent).
  const feePayer = familyTraits(chain).sweeperPaysDepositFees ? sweeper.address : null;
  const books = await readCustodyBooks(db, mode, chain, [treasury.address, sweeper.address], feePayer);
  const adapter = createChainAdapter(config);
  // USDT moves downstream only, from deposit addresses to the sweeper and the treasury (a sweep), and from the
  // treasury out (covered by `settling`). Reading the deposit addresses first and the roles after counts a sweep
  // that lands between the reads at both ends, never at neither (the roles read first missed it: an alert).
  let onDeposits = 0n;
  for (let i = 0; i < books.holders.length; i += PARALLEL_READS) {
    const read = await Promise.all(books.holders.slice(i, i + PARALLEL_READS).map((a) => adapter.balances(a)));
    for (const b of read) onDeposits += b.token;
  }
  const [t, s, needed, frozen, tStaked, sStaked] = await Promise.all([
    adapter.balances(treasury.address),
    adapter.balances(sweeper.address),
    gasNeeded(config),
    frozenCustody(db, config, books.holders),
    nativeStaked(config, treasury.address),
    nativeStaked(config, sweeper.address),
  ]);
  const roles = [
    { ...treasury, role: "treasury" as const, balance: t.native, staked: tStaked },
    { ...sweeper, role: "sweeper" as const, balance: s.native, staked: sStaked },
  ].map((r) => reconcileRoleNative({ ...r, books: books.roleNative.get(addressKey(r.address))!, needed }));
  const usdt = (raw: bigint) => formatAmount(toUsdtUnits(raw, decimals));
  const native = (raw: bigint) => formatUnits(raw, CHAIN_SPECS[config.chain].native.decimals);
  const nativeLine = (r: RoleNativeReconciliation) => ({
    address: r.address,
    on_chain: native(r.onChain),
    staked: native(r.staked),
    books: native(r.books),
    settling: native(r.settling),
    unmatched: native(r.unmatched),
  });
  const u = books.accounts.usdt;
  const n = books.accounts.native;
  const onChain = t.token + s.token + onDeposits;
  const booked = (u.deposit_addresses ?? 0n) + (u.treasury ?? 0n) + (u.sweeper ?? 0n) + (u.in_flight ?? 0n);
  const owed = books.owed.available + books.owed.reserved + books.owed.inFlight + books.owed.refundsInFlight;
  const unmatched = toUsdtUnits(onChain - booked, decimals);
  // Dust held on (or swept from) deposit addresses is on chain and owed to nobody: not a surplus to explain.
  const difference = toUsdtUnits(onChain - books.dustRaw, decimals) - owed;
  const settling = toUsdtUnits(books.settlingRaw, decimals);
  const alerts: string[] = [];
  if (difference + settling < 0n)
    alerts.push(`shortfall: ${formatAmount(-(difference + settling))} USDT less on chain than merchants are owed`);
  if (unmatched + settling < 0n)
    alerts.push(`unmatched: ${formatAmount(-(unmatched + settling))} USDT less on chain than the custody books hold`);
  for (const [role, held] of [
    ["treasury", t.native],
    ["sweeper", s.native],
  ] as const)
    if (held < needed)
      alerts.push(
        `gas: the ${role} holds ${native(held)} ${CHAIN_SPECS[chain].native.symbol}, ` +
          `less than one of its transactions may cost (${native(needed)} ${CHAIN_SPECS[chain].native.symbol})`,
      );
  for (const r of roles) {
    const alert = nativeAlert(r, native, CHAIN_SPECS[chain].native.symbol);
    if (alert) alerts.push(alert);
  }
  for (const f of frozen)
    alerts.push(
      `frozen: USDT's issuer froze the ${f.role === "deposit" ? "deposit address" : f.role} ${f.address} ` +
        `(${f.usdt} USDT there cannot move${f.role === "deposit" ? "; it is not swept" : ""})`,
    );
  return {
    chain,
    usdt: {
      on_chain: {
        treasury: usdt(t.token),
        sweeper: usdt(s.token),
        deposit_addresses: usdt(onDeposits),
        total: usdt(onChain),
      },
      books: {
        deposit_addresses: usdt(u.deposit_addresses ?? 0n),
        treasury: usdt(u.treasury ?? 0n),
        sweeper: usdt(u.sweeper ?? 0n),
        in_flight: usdt(u.in_flight ?? 0n),
        total: usdt(booked),
      },
      owed: {
        available: formatAmount(books.owed.available),
        reserved: formatAmount(books.owed.reserved),
        payouts_in_flight: formatAmount(books.owed.inFlight),
        refunds_in_flight: formatAmount(books.owed.refundsInFlight),
        total: formatAmount(owed),
      },
      dust: usdt(books.dustRaw),
      settling: formatAmount(settling),
      unmatched: formatAmount(unmatched),
      difference: formatAmount(difference),
    },
    gas: {
      symbol: CHAIN_SPECS[chain].native.symbol,
      treasury: native(t.native),
      sweeper: native(s.native),
      needed: native(needed),
      fees_spent: native(n.fees ?? 0n),
      books: {
        treasury: native(n.treasury ?? 0n),
        sweeper: native(n.sweeper ?? 0n),
        deposit_addresses: native(n.deposit_addresses ?? 0n),
        in_flight: native(n.in_flight ?? 0n),
        funded: native(-(n.funding ?? 0n)),
      },
      roles: { treasury: nativeLine(roles[0]!), sweeper: nativeLine(roles[1]!) },
    },
    deposit_addresses_read: books.holders.length,
    frozen,
    alerts,
  };
}

export type ChainReconciliation = Awaited<ReturnType<typeof reconcileChain>>;

/** `cli reconcile`: every chain of a mode (or one), with the custody books' consistency check. */
export async function reconcileCustody(db: Db, mode: Mode, chain?: Chain) {
  const configs = (await modeChainConfigs(db, mode)).filter((c) => !chain || c.chain === chain);
  const problems = await checkCustodyConsistency(db, mode);
  const chains = await Promise.all(
    configs.map((config) =>
      reconcileChain(db, config).catch((err: unknown) => ({
        chain: config.chain,
        error: `could not reconcile: ${String(err).split("\n")[0]}`,
      })),
    ),
  );
  const ok = problems.length === 0 && chains.every((c) => "alerts" in c && c.alerts.length === 0);
  return { object: "reconciliation", mode, ok, consistent: problems.length === 0, problems, chains };
}
