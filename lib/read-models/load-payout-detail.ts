import type { Db } from "@/lib/platform/db/client";
import { query } from "@/lib/platform/db/query";
import type { Mode } from "@/lib/kernel/mode";
import { getPayout } from "@/lib/money-out/payouts/get-payout";
import { PAYOUT_FAILURE_CODES } from "@/lib/money-out/payouts/payout-lifecycle";
import { reviewReason } from "@/lib/money-out/payouts/payout-policy";
import { serializePayout } from "@/lib/money-out/payouts/serialize-payout";
import { explorerTxUrl } from "@/lib/chains/explorer-urls";
import { formatNative, NATIVE_COIN } from "./native-coin";

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
    query<{
      id: string;
      status: string;
      tx_hash: string | null;
      confirmations: number | null;
      fee_native: string | null;
      created_at: Date;
      confirmed_at: Date | null;
    }>(
      db,
      `select id, status, tx_hash, confirmations, fee_native::text, created_at, confirmed_at from outbound_transactions
        where cause_id = $1 and purpose = 'payout' and mode = $2 order by created_at`,
      [id, owner.mode],
    ),
    query<{ type: string; created_at: Date }>(
      db,
      "select type, created_at from events where object_id = $1 and merchant_id = $2 and mode = $3 order by created_at",
      [id, owner.merchantId, owner.mode],
    ),
    query<{ action: string; created_at: Date; email: string | null }>(
      db,
      `select a.action, a.created_at, u.email from audit_log a left join users u on u.id = a.user_id
        where a.target = $1 and a.merchant_id = $2 order by a.created_at`,
      [id, owner.merchantId],
    ),
  ]);
  const coin = NATIVE_COIN[row.chain];
  const transactions = txs.map((t) => ({
    id: t.id,
    status: t.status,
    txHash: t.tx_hash,
    confirmations: t.confirmations,
    fee: t.fee_native === null ? null : `${formatNative(BigInt(t.fee_native), coin.decimals)} ${coin.symbol}`,
    explorerUrl: owner.mode === "live" && t.tx_hash ? explorerTxUrl(row.chain, t.tx_hash) : null,
  }));
  const timeline: TimelineEntry[] = [
    { at: row.createdAt.toISOString(), what: "Created" },
    ...audit
      .filter((a) => a.action !== "payout.created")
      .map((a) => ({
        at: a.created_at.toISOString(),
        what: `${a.action.replace("payout.", "")} by ${a.email ?? "the operator"}`,
      })),
    ...(row.approvedAt && !audit.some((a) => a.action === "payout.approved")
      ? [{ at: row.approvedAt.toISOString(), what: "approved" }]
      : []),
    ...txs.map((t) => ({ at: t.created_at.toISOString(), what: "Transfer queued" })),
    ...events.map((e) => ({ at: e.created_at.toISOString(), what: e.type })),
  ].sort((a, b) => a.at.localeCompare(b.at));
  const failure = row.failureCode
    ? (PAYOUT_FAILURE_CODES[row.failureCode as keyof typeof PAYOUT_FAILURE_CODES] ?? row.failureMessage)
    : null;
  const held = row.status === "review_required" ? await reviewReason(db, { ...row, approvedAt: null }) : null;
  return { payout, transactions, timeline, failure, held };
}
