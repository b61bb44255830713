import { Counter, Gauge, type Registry } from "prom-client";
import { getDb } from "@/lib/platform/db/client";
import { installSignalSink } from "@/lib/platform/metrics/signals";
import { type OperationsSnapshot, readOperationsSnapshot } from "@/lib/dashboard/views/operations-snapshot";

const UNITS_PER_USDT = 1_000_000;

/**
 * The worker's metrics (docs/OPERATIONS.md#metrics): the database's view of the service, read once per scrape
 * and shared by every gauge, plus what this process counted (webhook attempts by outcome).
 */
export function registerServiceMetrics(registry: Registry): void {
  let snapshot: { at: number; value: Promise<OperationsSnapshot> } | null = null;
  // One read per scrape: the gauges are collected one after another within a few milliseconds.
  const read = () => {
    if (!snapshot || Date.now() - snapshot.at > 1_000)
      snapshot = { at: Date.now(), value: readOperationsSnapshot(getDb()) };
    return snapshot.value;
  };
  type Sample<L extends string> = [Record<L, string>, number];
  const gauge = <L extends string>(
    name: string,
    help: string,
    labelNames: readonly L[],
    samples: (s: OperationsSnapshot) => Sample<L>[],
  ) =>
    new Gauge({
      name,
      help,
      labelNames,
      registers: [registry],
      async collect() {
        const s = await read();
        this.reset();
        for (const [labels, value] of samples(s)) this.set(labels as never, value);
      },
    });

  const chain = ["mode", "chain"] as const;
  const ofChain = (r: { mode: string; chain: string }) => ({ mode: r.mode, chain: r.chain });
  const ofStatus = (p: { mode: string; chain: string; status: string }) => ({ ...ofChain(p), status: p.status });
  gauge(
    "usdt_chain_healthy",
    "1 when the chain's watcher is ok, 0 when lagging, erroring or not watched.",
    chain,
    (s) => s.chains.map((c) => [ofChain(c), c.healthy ? 1 : 0]),
  );
  gauge(
    "usdt_chain_watcher_lag_blocks",
    "Blocks (slots) between the chain's head and the last one processed.",
    chain,
    (s) =>
      s.chains.flatMap((c): Sample<"mode" | "chain">[] => (c.lag_blocks === null ? [] : [[ofChain(c), c.lag_blocks]])),
  );
  gauge("usdt_chain_watcher_lag_seconds", "The watcher's lag in seconds of block time.", chain, (s) =>
    s.chains.flatMap((c): Sample<"mode" | "chain">[] => (c.lag_seconds === null ? [] : [[ofChain(c), c.lag_seconds]])),
  );
  gauge(
    "usdt_webhook_deliveries",
    "Deliveries waiting for an attempt (pending), and given up in the last 24 h (failed).",
    ["mode", "status"] as const,
    (s) => s.deliveries.map((d) => [{ mode: d.mode, status: d.status }, d.count]),
  );
  gauge(
    "usdt_webhook_delivery_oldest_pending_seconds",
    "Age of the oldest delivery still waiting.",
    ["mode"] as const,
    (s) => s.deliveries.filter((d) => d.status === "pending").map((d) => [{ mode: d.mode }, d.oldest_seconds]),
  );
  gauge(
    "usdt_jobs_queued",
    "Jobs in the queue by task: ready to run now, scheduled for later, running.",
    ["task", "state"] as const,
    (s) =>
      s.jobs.flatMap((j): Sample<"task" | "state">[] => [
        [{ task: j.task, state: "ready" }, j.ready],
        [{ task: j.task, state: "scheduled" }, j.scheduled],
        [{ task: j.task, state: "running" }, j.running],
      ]),
  );
  gauge(
    "usdt_payouts_open",
    "Payouts not yet final, by status (pending, review_required, processing).",
    [...chain, "status"] as const,
    (s) => s.payouts.open.map((p) => [ofStatus(p), p.count]),
  );
  gauge(
    "usdt_payouts_finished_24h",
    "Payouts that ended in the last 24 hours, by status (confirmed, failed, blocked).",
    [...chain, "status"] as const,
    (s) => s.payouts.finished.map((p) => [ofStatus(p), p.count]),
  );
  gauge(
    "usdt_payouts_oldest_open_seconds",
    "Age of the oldest payout in each open status.",
    [...chain, "status"] as const,
    (s) => s.payouts.open.map((p) => [ofStatus(p), p.oldest_seconds]),
  );
  gauge(
    "usdt_refunds_open",
    "Refunds not yet final, by status (requires_action: waiting for the payer's address; pending; processing).",
    [...chain, "status"] as const,
    (s) => s.refunds.open.map((r) => [ofStatus(r), r.count]),
  );
  gauge(
    "usdt_refunds_oldest_open_seconds",
    "Age of the oldest refund in each open status.",
    [...chain, "status"] as const,
    (s) => s.refunds.open.map((r) => [ofStatus(r), r.oldest_seconds]),
  );
  gauge(
    "usdt_refunds_finished_24h",
    "Refunds that ended in the last 24 hours, by status (succeeded, failed, canceled).",
    [...chain, "status"] as const,
    (s) => s.refunds.finished.map((r) => [ofStatus(r), r.count]),
  );
  gauge(
    "usdt_payouts_waiting_for_liquidity_overdue",
    "Payouts pending for want of treasury funds longer than PAYOUT_LIQUIDITY_ALERT_MINUTES.",
    chain,
    (s) => {
      const overdue = new Map<string, Sample<"mode" | "chain">>();
      for (const p of s.payouts.open) {
        const key = `${p.mode}/${p.chain}`;
        overdue.set(key, [ofChain(p), (overdue.get(key)?.[1] ?? 0) + p.overdue]);
      }
      return [...overdue.values()];
    },
  );
  gauge(
    "usdt_reconcile_shortfall_usdt",
    "USDT less on chain than merchants are owed, at the last reconciliation (0: none).",
    chain,
    (s) => s.reconcile.map((r) => [ofChain(r), Number(r.shortfall_units) / UNITS_PER_USDT]),
  );
  gauge(
    "usdt_reconcile_unmatched_usdt",
    "USDT less on chain than the custody books hold, at the last reconciliation.",
    chain,
    (s) => s.reconcile.map((r) => [ofChain(r), Number(r.unmatched_units) / UNITS_PER_USDT]),
  );
  gauge(
    "usdt_reconcile_gas_short",
    "How many of the treasury and sweeper hold less native coin than one transaction may cost.",
    chain,
    (s) => s.reconcile.map((r) => [ofChain(r), r.gas_short]),
  );
  gauge("usdt_reconcile_alerts", "Findings of the last reconciliation (shortfall, unmatched, gas).", chain, (s) =>
    s.reconcile.map((r) => [ofChain(r), r.alerts.length]),
  );
  gauge(
    "usdt_reconcile_last_run_timestamp_seconds",
    "When the chain was last reconciled (every 5 minutes when the chain answers).",
    chain,
    (s) => s.reconcile.map((r) => [ofChain(r), r.checked_at.getTime() / 1000]),
  );

  const attempts = new Counter({
    name: "usdt_webhook_attempts_total",
    help: "Webhook delivery attempts this process made: delivered, http_error (the receiver refused) or network_error.",
    labelNames: ["outcome"] as const,
    registers: [registry],
  });
  const burntInstead = new Counter({
    name: "usdt_tron_energy_burnt_instead_total",
    help:
      "Tron transfers that burnt TRX for energy because the treasury's stake could not cover them " +
      "(TRON_ENERGY_STRATEGY=stake), by purpose.",
    labelNames: ["purpose"] as const,
    registers: [registry],
  });
  const frozenFound = new Counter({
    name: "usdt_frozen_address_found_total",
    help:
      "Times the sweep planner found an address of the service's " +
      "frozen by USDT's issuer and left it (role: deposit or treasury).",
    labelNames: ["role"] as const,
    registers: [registry],
  });
  const feeCapped = new Counter({
    name: "usdt_solana_priority_fee_capped_total",
    help:
      "Solana transactions signed at SOLANA_MAX_COMPUTE_UNIT_PRICE because recent blocks asked more (they may wait " +
      "for the congestion to pass), by purpose.",
    labelNames: ["purpose"] as const,
    registers: [registry],
  });
  installSignalSink((signal, labels, by) => {
    if (signal === "webhook_attempts") attempts.inc({ outcome: labels.outcome ?? "unknown" }, by);
    if (signal === "tron_energy_burnt_instead") burntInstead.inc({ purpose: labels.purpose ?? "unknown" }, by);
    if (signal === "frozen_address_found") frozenFound.inc({ role: labels.role ?? "unknown" }, by);
    if (signal === "solana_priority_fee_capped") feeCapped.inc({ purpose: labels.purpose ?? "unknown" }, by);
  });
}
