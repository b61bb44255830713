import { z } from "zod";
import type { Scope } from "@/lib/identity/api-keys/scopes";
import { paymentObject } from "@/lib/money-in/payments/payment-object";
import { payoutObject } from "@/lib/money-out/payouts/payout-object";
import { refundObject } from "@/lib/money-out/refunds/refund-object";
import { balanceTransactionObject } from "@/lib/reports/balance-transactions/balance-transaction-object";
import { EXPORTS, type ExportResource } from "@/lib/reports/exports/export-sources";
import { defineOperation } from "../operation";

const csv = z.string().meta({ description: "CSV: a header row, then one row per object (docs: Exports)." });

function exportOperation(resource: ExportResource, scope: Scope, object: z.ZodType, noun: string) {
  return defineOperation({
    operationId: `export${resource.replace(/(^|_)(\w)/g, (_, __, c: string) => c.toUpperCase())}`,
    method: "get",
    path: `/v1/exports/${resource}`,
    tag: "Exports",
    summary: `Export ${noun}`,
    description:
      `Every ${noun.replace(/s$/, "")} its list would page through for the same filters, newest first, in one ` +
      "streamed answer: CSV (`format=csv`, the default; times in UTC or `timezone`) or JSON lines " +
      "(`format=jsonl`, the API's objects). Each export is recorded in the audit log with its filter and row count.",
    scope,
    query: EXPORTS[resource].query,
    response: csv,
    contents: { "text/csv": csv, "application/x-ndjson": object },
  });
}

export const EXPORT_OPERATIONS = {
  payments: exportOperation("payments", "payments:read", paymentObject, "payments"),
  payouts: exportOperation("payouts", "payouts:read", payoutObject, "payouts"),
  refunds: exportOperation("refunds", "refunds:read", refundObject, "refunds"),
  balance_transactions: exportOperation(
    "balance_transactions",
    "balances:read",
    balanceTransactionObject,
    "balance transactions",
  ),
};
