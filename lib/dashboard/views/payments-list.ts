import { CHAINS, type Chain } from "@/lib/chains/chains";
import type { Db } from "@/lib/platform/db/client";
import type { Mode } from "@/lib/kernel/mode";
import { utcDay } from "@/lib/kernel/schemas/list-filters";
import { listPayments, type PaymentFilters } from "@/lib/money-in/payments/list-payments";
import { PAYMENT_STATUS_VALUES, type PaymentStatus } from "@/lib/money-in/payments/payment-row";
import { serializePayment } from "@/lib/money-in/payments/serialize-payment";
import { DASHBOARD_PAGE_SIZE, pageCursor, pageLinks, withStaleCursor } from "./page-cursor";

export type PaymentsQuery = Record<string, string | undefined>;
type FieldErrors = Partial<Record<"status" | "chain" | "from" | "to" | "q", string>>;

/** The page's query (status, chain, from, to as UTC days, q) → the list's filters, or an error per field. */
export function parsePaymentFilters(q: PaymentsQuery): { filters: PaymentFilters; errors: FieldErrors } {
  const filters: PaymentFilters = {};
  const errors: FieldErrors = {};
  if (q.status) {
    if ((PAYMENT_STATUS_VALUES as readonly string[]).includes(q.status)) filters.status = q.status as PaymentStatus;
    else errors.status = "Choose a status from the list.";
  }
  if (q.chain) {
    if ((CHAINS as readonly string[]).includes(q.chain)) filters.chain = q.chain as Chain;
    else errors.chain = "Choose a network from the list.";
  }
  const created: NonNullable<PaymentFilters["created"]> = {};
  if (q.from) {
    const d = utcDay(q.from);
    if (d) created.gte = d;
    else errors.from = "Enter a date as YYYY-MM-DD.";
  }
  if (q.to) {
    const d = utcDay(q.to);
    if (d)
      created.lt = new Date(d.getTime() + 86_400_000); // the whole "to" day is included
    else errors.to = "Enter a date as YYYY-MM-DD.";
  }
  if (created.gte && created.lt && created.gte >= created.lt)
    errors.to = "The end date must not be before the start date.";
  if (created.gte || created.lt) filters.created = created;
  const search = q.q?.trim();
  if (search) {
    if (search.length <= 200) filters.search = search;
    else errors.q = "Search for one payment id, deposit address or transaction hash.";
  }
  return { filters, errors };
}

/**
 * The payments page: one page of the mode's payments through the list /v1/payments uses, narrowed by the
 * filters, with the cursors of its Previous and Next links.
 */
export async function loadPaymentsPage(db: Db, owner: { merchantId: string; mode: Mode }, q: PaymentsQuery) {
  const { filters, errors } = parsePaymentFilters(q);
  const cursor = pageCursor(q);
  const page = await withStaleCursor(() =>
    listPayments(
      db,
      owner,
      { limit: DASHBOARD_PAGE_SIZE, starting_after: cursor.after, ending_before: cursor.before },
      filters,
    ),
  );
  if (page === "stale_cursor")
    return {
      errors,
      staleCursor: true,
      filtered: false,
      payments: [],
      links: { previous: undefined, next: undefined },
    };
  const payments = page.rows.map((row) => {
    const p = serializePayment(row, "", []);
    return {
      id: p.id,
      status: p.status,
      chain: p.chain,
      amount: p.amount,
      address: p.deposit_address,
      created_at: p.created_at,
    };
  });
  return {
    errors,
    staleCursor: false,
    payments,
    links: pageLinks(
      payments.map((p) => p.id),
      cursor,
      page.hasMore,
    ),
    filtered: Object.keys(filters).length > 0,
  };
}
