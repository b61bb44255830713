import { type Chain, CHAINS } from "@/lib/chains/chains";
import { PAYOUT_STATUSES } from "@/lib/money-out/payouts/schemas";
import { REFUND_STATUSES } from "@/lib/money-out/refunds/schemas";
import { BALANCE_TRANSACTION_TYPES } from "@/lib/reports/balance-transactions/balance-transaction-object";
import type { ExportResource } from "@/lib/reports/exports/export-sources";
import { parsePaymentFilters } from "./payments-list";

type Query = Record<string, string | undefined>;
const oneOf = (values: readonly string[], value: string | undefined) =>
  value && values.includes(value) ? value : undefined;

/**
 * What a list page shows, as its export's filters: an Export button downloads exactly the rows the screen pages
 * through. Null when the page's query has an error (the page shows it; nothing is exported).
 */
export function exportFiltersOf(resource: ExportResource, q: Query): Record<string, unknown> | null {
  const bad = (value: string | undefined, known: string | undefined) => Boolean(value) && !known;
  switch (resource) {
    case "payments": {
      const { filters, errors } = parsePaymentFilters(q);
      return Object.keys(errors).length ? null : { ...filters };
    }
    case "payouts":
    case "refunds": {
      const status = oneOf(resource === "payouts" ? PAYOUT_STATUSES : REFUND_STATUSES, q.status);
      return bad(q.status, status) ? null : status ? { status } : {};
    }
    case "balance_transactions": {
      const chain = oneOf(CHAINS, q.chain) as Chain | undefined;
      const type = oneOf(BALANCE_TRANSACTION_TYPES, q.type);
      if (bad(q.chain, chain) || bad(q.type, type)) return null;
      return { ...(chain ? { chain } : {}), ...(type ? { type } : {}) };
    }
  }
}
