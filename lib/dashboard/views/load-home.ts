import { listBalances } from "@/lib/books/balances/list-balances";
import { enabledChains } from "@/lib/chains/chains";
import type { Db } from "@/lib/platform/db/client";
import type { Mode } from "@/lib/kernel/mode";
import { listPayments } from "@/lib/money-in/payments/list-payments";
import { serializePaymentListItem } from "@/lib/money-in/payments/serialize-payment";
import { loadChainHealth } from "@/lib/money-in/watch/load-chain-health";
import { loadDailyVolume } from "@/lib/money-in/payments/daily-volume";

export const RECENT_PAYMENTS = 10;

/**
 * The dashboard home of a merchant in one mode: the balances /v1/balances lists, the latest payments, the
 * confirmed volume of the last 30 days and each chain watcher's health.
 */
export async function loadHome(db: Db, owner: { merchantId: string; mode: Mode }) {
  const [balances, payments, volume, chains] = await Promise.all([
    listBalances(db, owner),
    listPayments(db, owner, { limit: RECENT_PAYMENTS }),
    loadDailyVolume(db, owner),
    loadChainHealth(db, owner.mode, enabledChains(owner.mode)),
  ]);
  return { balances, payments: payments.rows.map(serializePaymentListItem), volume, chains };
}
