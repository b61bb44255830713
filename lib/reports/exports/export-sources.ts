import type { Mode } from "@/lib/kernel/mode";
import { listPaymentObjectRows, type PaymentFilters } from "@/lib/money-in/payments/list-payments";
import { readPaymentTransfers } from "@/lib/money-in/payments/payment-transfers";
import { listPaymentsQuery } from "@/lib/money-in/payments/schemas";
import { serializePayment } from "@/lib/money-in/payments/serialize-payment";
import { listPayouts } from "@/lib/money-out/payouts/list-payouts";
import { listPayoutsQuery } from "@/lib/money-out/payouts/schemas";
import { serializePayout } from "@/lib/money-out/payouts/serialize-payout";
import { listRefunds } from "@/lib/money-out/refunds/list-refunds";
import { listRefundsQuery } from "@/lib/money-out/refunds/schemas";
import { serializeRefund } from "@/lib/money-out/refunds/serialize-refund";
import type { Db } from "@/lib/platform/db/client";
import { listBalanceTransactionsQuery } from "../balance-transactions/balance-transaction-object";
import { listBalanceTransactions } from "../balance-transactions/list-balance-transactions";
import { type ExportFormat, exportFormatQuery } from "./export-format";

type Owner = { merchantId: string; mode: Mode };
type ApiObject = Record<string, unknown> & { id: string };
/** One batch of a list, newest first, after the object `after`, as the API's objects. */
type Batch = (
  db: Db,
  owner: Owner,
  filters: Record<string, unknown>,
  after: string | undefined,
  size: number,
  baseUrl: string,
  format: ExportFormat,
) => Promise<{ objects: ApiObject[]; hasMore: boolean }>;

const paging = { limit: true, starting_after: true } as const;

/** A batch of a list that pages by `starting_after`, each row serialized as its API object. */
const listBatch =
  <Row>(
    list: (db: Db, owner: Owner, page: Record<string, unknown>) => Promise<{ rows: Row[]; hasMore: boolean }>,
    serialize: (row: Row) => ApiObject,
  ): Batch =>
  async (db, owner, filters, after, size) => {
    const page = await list(db, owner, { ...filters, limit: size, starting_after: after });
    return { objects: page.rows.map(serialize), hasMore: page.hasMore };
  };

/**
 * What each export reads: its list's filters (the same function the list runs, so an export holds exactly what the
 * list pages through), and the CSV columns, each an API object's field (docs/EXPORTS.md). A column's time is
 * written in the export's time zone; `metadata` is its JSON.
 */
export const EXPORTS = {
  payments: {
    query: listPaymentsQuery.omit(paging).extend(exportFormatQuery),
    columns: [
      "id",
      "created_at",
      "status",
      "chain",
      "amount",
      "amount_received",
      "amount_refunded",
      "currency",
      "deposit_address",
      "payer_address",
      "tx_hash",
      "confirmed_at",
      "expires_at",
      "description",
      "metadata",
    ],
    batch: (async (db, owner, filters, after, size, baseUrl, format) => {
      const page = await listPaymentObjectRows(
        db,
        owner,
        { limit: size, starting_after: after },
        filters as PaymentFilters,
      );
      // A CSV has no column for the transfers: they are read for JSON lines only.
      const transfers =
        format === "jsonl"
          ? await readPaymentTransfers(
              db,
              page.rows.map((p) => p.id),
            )
          : null;
      const objects = page.rows.map((p) => serializePayment(p, baseUrl, transfers?.get(p.id) ?? []));
      return { objects, hasMore: page.hasMore };
    }) as Batch,
  },
  payouts: {
    query: listPayoutsQuery.omit(paging).extend(exportFormatQuery),
    columns: [
      "id",
      "created_at",
      "status",
      "chain",
      "amount",
      "currency",
      "to_address",
      "tx_hash",
      "confirmed_at",
      "failure_code",
      "description",
      "metadata",
    ],
    batch: listBatch(listPayouts, serializePayout),
  },
  refunds: {
    query: listRefundsQuery.omit(paging).extend(exportFormatQuery),
    columns: [
      "id",
      "created_at",
      "status",
      "chain",
      "payment",
      "amount",
      "currency",
      "destination",
      "to_address",
      "tx_hash",
      "succeeded_at",
      "failure_code",
      "reason",
      "metadata",
    ],
    // Never a claim link: an export is a list.
    batch: listBatch(listRefunds, (r) => serializeRefund(r)),
  },
  balance_transactions: {
    query: listBalanceTransactionsQuery.omit(paging).extend(exportFormatQuery),
    columns: ["id", "created_at", "type", "chain", "amount", "fee", "net", "source", "available_after"],
    batch: (async (db, owner, filters, after, size) => {
      const page = await listBalanceTransactions(db, owner, { ...filters, limit: size, starting_after: after });
      return { objects: page.data, hasMore: page.hasMore };
    }) as Batch,
  },
} as const;
export type ExportResource = keyof typeof EXPORTS;
export const EXPORT_RESOURCES = Object.keys(EXPORTS) as ExportResource[];
