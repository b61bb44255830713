import { listBalances } from "@/lib/balances/list-balances";
import type { Db } from "@/lib/db/client";
import type { Mode } from "@/lib/modes/mode";
import { listPayments } from "@/lib/payments/list-payments";
import { serializePaymentListItem } from "@/lib/payments/serialize-payment";

export const RECENT_PAYMENTS = 10;

/** The dashboard home of a merchant in one mode: the balances /v1/balances lists and the latest payments. */
export async function loadHome(db: Db, owner: { merchantId: string; mode: Mode }) {
  const [balances, payments] = await Promise.all([
    listBalances(db, owner),
    listPayments(db, owner, { limit: RECENT_PAYMENTS }),
  ]);
  return { balances, payments: payments.rows.map(serializePaymentListItem) };
}
