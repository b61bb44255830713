import type { Db } from "@/lib/platform/db/client";
import { listAuditOfTarget } from "@/lib/identity/users/list-audit";
import { listOutboundOf } from "@/lib/money-out/outbound/list-outbound-of";
import { listObjectEvents } from "@/lib/notify/events/list-events";
import type { Mode } from "@/lib/kernel/mode";
import { getPayout } from "@/lib/money-out/payouts/payout-kind";
import { batchesOf } from "@/lib/money-out/transfers/payout-batch";
import { PAYOUT_FAILURE_CODES } from "@/lib/money-out/payouts/payout-lifecycle";
import { reviewReason } from "@/lib/money-out/payouts/payout-policy";
import { serializePayout } from "@/lib/money-out/payouts/serialize-payout";
import { explorerTxUrl } from "@/lib/chains/explorer-urls";
import { formatNative, nativeCoin } from "./native-coin";

export interface TimelineEntry {
  at: string;
  what: string;
}

/**
 * A payout's detail page: the payout as the API shows it, its transfer transaction(s) with confirmations and
 * network fee (explorer links in live mode), why it waits for review, and its timeline (creation, the team's
 * review decisions from the audit log, the transfer, and the payout's events). Another merchant's or mode's
 * payout is not found (DomainError not_found).
 */
export async function loadPayoutDetail(db: Db, owner: { merchantId: string; mode: Mode }, id: string) {
  const row = await getPayout(db, owner, id);
  const payout = serializePayout(row);
  const [txs, events, audit] = await Promise.all([
    batchesOf(db, id).then((batches) => listOutboundOf(db, owner.mode, "payout", id, batches)),
    listObjectEvents(db, owner, id),
    listAuditOfTarget(db, owner.merchantId, id),
  ]);
  const coin = nativeCoin(row.chain);
  const transactions = txs.map((t) => ({
    id: t.id,
    status: t.status,
    txHash: t.txHash,
    confirmations: t.confirmations,
    fee: t.feeNative === null ? null : `${formatNative(t.feeNative, coin.decimals)} ${coin.symbol}`,
    explorerUrl: owner.mode === "live" && t.txHash ? explorerTxUrl(row.chain, t.txHash) : null,
  }));
  const timeline: TimelineEntry[] = [
    { at: row.createdAt.toISOString(), what: "Created" },
    ...audit
      .filter((a) => a.action !== "payout.created")
      .map((a) => ({
        at: a.createdAt.toISOString(),
        what: `${a.action.replace("payout.", "")} by ${a.email ?? "the operator"}`,
      })),
    ...(row.approvedAt && !audit.some((a) => a.action === "payout.approved")
      ? [{ at: row.approvedAt.toISOString(), what: "approved" }]
      : []),
    ...txs.map((t) => ({ at: t.createdAt.toISOString(), what: "Transfer queued" })),
    ...events.map((e) => ({ at: e.createdAt.toISOString(), what: e.type })),
  ].sort((a, b) => a.at.localeCompare(b.at));
  const failure = row.failureCode
    ? (PAYOUT_FAILURE_CODES[row.failureCode as keyof typeof PAYOUT_FAILURE_CODES] ?? row.failureMessage)
    : null;
  const held = row.status === "review_required" ? await reviewReason(db, { ...row, approvedAt: null }) : null;
  return { payout, transactions, timeline, failure, held };
}
