import type { Mode } from "@/lib/kernel/mode";
import type { Db } from "@/lib/platform/db/client";
import { costReport } from "@/lib/money-out/costs/cost-report";
import { defaultSince, parseSince } from "@/lib/money-out/costs/costs-since";

/** `?since=` (a UTC day or an instant), as the day it falls on; 30 days ago when absent or not a real date. */
export function costsSince(raw: string | undefined, now = Date.now()): string {
  return ((raw ? parseSince(raw) : null) ?? defaultSince(now)).toISOString().slice(0, 10);
}

/** The costs page: the merchant's own payments, payouts and refunds in the mode, since a day (cost-report.ts). */
export async function loadCostsPage(db: Db, merchantId: string, mode: Mode, sinceParam: string | undefined) {
  const since = costsSince(sinceParam);
  const report = await costReport(db, { mode, since: new Date(`${since}T00:00:00Z`), merchantId });
  return { since, chains: report.chains, days: report.days };
}
