import { addressKey, addressKeySql } from "@/lib/chains/address-key";
import type { Db } from "@/lib/platform/db/client";
import { query } from "@/lib/platform/db/query";
import { formatAmount } from "@/lib/kernel/amount";
import type { Mode } from "@/lib/kernel/mode";
import type { PayoutRow } from "./payout-row";

export interface PayoutPolicy {
  merchant: string;
  mode: Mode;
  /** Payouts above this (USDT base units) wait for review; null: no amount limit. */
  reviewAboveUnits: bigint | null;
  /** Payouts to a destination this merchant never paid (a confirmed payout) in this mode wait for review. */
  reviewNewDestinations: boolean;
  /**
   * The payout's requester may approve it (only while the team has a single approver;
   * lib/dashboard/actions/second-approver.ts).
   */
  allowSelfApproval: boolean;
}

export async function getPayoutPolicy(db: Db, merchantId: string, mode: Mode): Promise<PayoutPolicy> {
  const [row] = await query<{
    review_above_units: string | null;
    review_new_destinations: boolean;
    allow_self_approval: boolean;
  }>(
    db,
    `select review_above_units::text, review_new_destinations, allow_self_approval
       from payout_policies where merchant_id = $1 and mode = $2`,
    [merchantId, mode],
  );
  return {
    merchant: merchantId,
    mode,
    reviewAboveUnits: row?.review_above_units ? BigInt(row.review_above_units) : null,
    reviewNewDestinations: row?.review_new_destinations ?? false,
    allowSelfApproval: row?.allow_self_approval ?? false,
  };
}

export async function setPayoutPolicy(db: Db, policy: PayoutPolicy): Promise<PayoutPolicy> {
  await query(
    db,
    `insert into payout_policies (merchant_id, mode, review_above_units, review_new_destinations, allow_self_approval)
     values ($1, $2, $3, $4, $5)
     on conflict (merchant_id, mode) do update set review_above_units = excluded.review_above_units,
       review_new_destinations = excluded.review_new_destinations,
       allow_self_approval = excluded.allow_self_approval, updated_at = now()`,
    [
      policy.merchant,
      policy.mode,
      policy.reviewAboveUnits?.toString() ?? null,
      policy.reviewNewDestinations,
      policy.allowSelfApproval,
    ],
  );
  return policy;
}

export const serializePolicy = (p: PayoutPolicy) => ({
  object: "payout_policy",
  merchant: p.merchant,
  mode: p.mode,
  review_above: p.reviewAboveUnits === null ? null : formatAmount(p.reviewAboveUnits),
  review_new_destinations: p.reviewNewDestinations,
  allow_self_approval: p.allowSelfApproval,
});

/** Why the policy holds this payout for review, or null. An approved payout is never held again. */
export async function reviewReason(db: Db, payout: PayoutRow): Promise<string | null> {
  if (payout.approvedAt) return null;
  const policy = await getPayoutPolicy(db, payout.merchantId, payout.mode);
  if (policy.reviewAboveUnits !== null && payout.amountUnits > policy.reviewAboveUnits)
    return `amount above the review limit of ${formatAmount(policy.reviewAboveUnits)} USDT`;
  if (policy.reviewNewDestinations) {
    const [paid] = await query(
      db,
      `select 1 from payouts where merchant_id = $1 and mode = $2 and chain = $3 and status = 'confirmed'
         and ${addressKeySql("to_address")} = $4 limit 1`,
      [payout.merchantId, payout.mode, payout.chain, addressKey(payout.toAddress)],
    );
    if (!paid) return "a destination this merchant has never paid";
  }
  return null;
}
