import { type Chain, CHAINS } from "@/lib/chains/chains";
import type { Mode } from "@/lib/kernel/mode";
import type { Db } from "@/lib/platform/db/client";
import {
  BALANCE_TRANSACTION_TYPES,
  type BalanceTransactionType,
} from "@/lib/reports/balance-transactions/balance-transaction-object";
import { listBalanceTransactions } from "@/lib/reports/balance-transactions/list-balance-transactions";
import { DASHBOARD_PAGE_SIZE, pageCursor, withStaleCursor } from "./page-cursor";

/** The balance history page: the API's balance transactions, narrowed by chain and type, a page at a time. */
export async function loadBalanceTransactionsPage(
  db: Db,
  owner: { merchantId: string; mode: Mode },
  q: Record<string, string | undefined>,
) {
  const chain = (CHAINS as readonly string[]).includes(q.chain ?? "") ? (q.chain as Chain) : undefined;
  const type = (BALANCE_TRANSACTION_TYPES as readonly string[]).includes(q.type ?? "")
    ? (q.type as BalanceTransactionType)
    : undefined;
  const after = pageCursor(q).after;
  const page = await withStaleCursor(() =>
    listBalanceTransactions(db, owner, { chain, type, limit: DASHBOARD_PAGE_SIZE, starting_after: after }),
  );
  if (page === "stale_cursor") return { chain, type, rows: [], next: undefined, stale: true };
  return { chain, type, rows: page.data, next: page.hasMore ? page.data.at(-1)?.id : undefined, stale: false };
}
