import type { Mode } from "@/lib/kernel/mode";
import type { Db } from "@/lib/platform/db/client";
import { costReport } from "@/lib/money-out/costs/cost-report";

const DAY_MS = 86_400_000;
export const COSTS_DEFAULT_DAYS = 30;

/** `?since=YYYY-MM-DD` (UTC), or 30 days ago when absent or not a real day. */
export function costsSince(raw: string | undefined, now = Date.now()): string {
  const fallback = new Date(now - COSTS_DEFAULT_DAYS * DAY_MS).toISOString().slice(0, 10);
  if (!raw || !/^\d{4}-\d{2}-\d{2}$/.test(raw)) return fallback;
  const date = new Date(`${raw}T00:00:00Z`);
  return Number.isNaN(date.getTime()) || date.toISOString().slice(0, 10) !== raw ? fallback : raw;
}

/** The costs page: the merchant's own payments, payouts and refunds in the mode, since a day (cost-report.ts). */
export async function loadCostsPage(db: Db, merchantId: string, mode: Mode, sinceParam: string | undefined) {
  const since = costsSince(sinceParam);
  const report = await costReport(db, { mode, since: new Date(`${since}T00:00:00Z`), merchantId });
  return { since, chains: report.chains, days: report.days };
}
