import { DomainError } from "@/lib/kernel/domain-error";
import { explorerTxUrl } from "@/lib/chains/explorer-urls";
import type { Db } from "@/lib/platform/db/client";
import type { Mode } from "@/lib/kernel/mode";
import { formatAmount } from "@/lib/kernel/amount";
import { getPayment } from "@/lib/money-in/payments/get-payment";
import { readPaymentTransfers } from "@/lib/money-in/payments/payment-transfers";
import { listDashboardRefunds } from "@/lib/dashboard/actions/dashboard-refunds";
import { serializePayment } from "@/lib/money-in/payments/serialize-payment";
import { listPaymentDeposits } from "@/lib/money-in/deposits/list-payment-deposits";
import { listObjectEvents } from "@/lib/notify/events/list-events";
import { listEventDeliveries } from "@/lib/notify/webhooks/list-event-deliveries";

type Owner = { merchantId: string; mode: Mode };

/** null when the id is not a payment of this merchant in this mode (the page's 404). */
export async function findOwnPayment(db: Db, owner: Owner, id: string) {
  try {
    return await getPayment(db, owner, id);
  } catch (err) {
    if (err instanceof DomainError && err.type === "not_found") return null;
    throw err;
  }
}

/**
 * A payment's detail page: the payment object (as GET /v1/payments/:id), its timeline (every event it
 * emitted: one per status change), its deposits with their transactions (explorer links in live mode only),
 * and the webhook deliveries of its events. null → 404.
 */
export async function loadPaymentDetail(db: Db, owner: Owner, id: string, baseUrl: string) {
  const row = await findOwnPayment(db, owner, id);
  if (!row) return null;
  const [events, deposits, transfers, refunds] = await Promise.all([
    listObjectEvents(db, owner, row.id),
    listPaymentDeposits(db, owner, row.id),
    readPaymentTransfers(db, [row.id]),
    listDashboardRefunds(db, owner, { payment: row.id }),
  ]);
  const credited = transfers
    .get(row.id)!
    .filter((t) => t.status === "credited")
    .reduce((sum, t) => sum + t.amountUnits, 0n);
  return {
    payment: serializePayment(row, baseUrl, transfers.get(row.id)!),
    timeline: [
      { id: null, type: "created", at: row.createdAt.toISOString() },
      ...events.map((e) => ({ id: e.id, type: e.type, at: e.createdAt.toISOString() })),
      ...refunds.refunds.map((r) => ({ id: r.id, type: `refund of ${r.amount} USDT (${r.status})`, at: r.created_at })),
    ].sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : 0)),
    refunds: refunds.refunds,
    /** What a refund may still take: credited transfers less refunds not failed or canceled. */
    refundable: formatAmount(credited - row.amountRefundedUnits),
    deposits: deposits.map((d) => ({
      id: d.id,
      chain: d.chain,
      kind: d.kind,
      status: d.status,
      tx_hash: d.txHash,
      block: d.block,
      from: d.from,
      amount: formatAmount(d.amountUnits),
      at: d.blockTime.toISOString(),
      explorer_url: owner.mode === "live" ? explorerTxUrl(d.chain, d.txHash) : null,
    })),
    deliveries: await listEventDeliveries(
      db,
      owner,
      events.map((e) => e.id),
    ),
  };
}
