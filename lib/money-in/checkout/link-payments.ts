import type { Db } from "@/lib/platform/db/client";
import { query } from "@/lib/platform/db/query";

/**
 * Payments one link may create over its 30-minute life (docs/CHECKOUT.md). Reuse already bounds what a
 * visitor can create without paying (about two per network: the open one, then its successor in its last
 * minutes); the cap bounds the rest — addresses watched for days and webhooks sent to the merchant — for a
 * link shared far wider than one payer, while leaving room for real payers and their retries.
 */
export const MAX_PAYMENTS_PER_LINK = 20;

/** An open payment with less time than this left is not handed to a payer: a fresh one is created. */
export const MIN_SECONDS_LEFT_TO_REUSE = 5 * 60;

/** The link has created MAX_PAYMENTS_PER_LINK payments: the page says it takes no more. */
export class LinkPaymentLimitError extends Error {
  constructor() {
    super(`This payment link has reached its limit of ${MAX_PAYMENTS_PER_LINK} payments.`);
    this.name = "LinkPaymentLimitError";
  }
}

/**
 * The link's payment on `chain` that a payer can still pay: awaiting payment, with at least
 * MIN_SECONDS_LEFT_TO_REUSE before it expires (the latest one, if several). The caller holds the link's
 * row lock, so no payment of the link is created meanwhile.
 */
export async function reusableLinkPayment(tx: Db, linkId: string, chain: string): Promise<string | null> {
  const [row] = await query<{ id: string }>(
    tx,
    `select id from payments
      where payment_link_id = $1 and chain = $2 and status = 'awaiting_payment'
        and expires_at > now() + make_interval(secs => $3)
      order by expires_at desc limit 1`,
    [linkId, chain, MIN_SECONDS_LEFT_TO_REUSE],
  );
  return row?.id ?? null;
}

/** Throws LinkPaymentLimitError when the link has created all the payments it may (link row locked). */
export async function requireRoomForLinkPayment(tx: Db, linkId: string): Promise<void> {
  const [row] = await query<{ n: number }>(tx, "select count(*)::int as n from payments where payment_link_id = $1", [
    linkId,
  ]);
  if (row!.n >= MAX_PAYMENTS_PER_LINK) throw new LinkPaymentLimitError();
}
