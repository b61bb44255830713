import type { Db } from "@/lib/platform/db/client";
import { keysetPage } from "@/lib/platform/db/keyset-page";
import type { Mode } from "@/lib/kernel/mode";
import { PAYMENT_LINK_COLUMNS, toPaymentLinkRow, type PaymentLinkRow } from "./payment-link-row";

export type LinkState = "active" | "expired";

// The same rule as serializePaymentLink's `active`, in SQL: not deactivated and not yet expired.
const ACTIVE_SQL = "deactivated_at is null and expires_at > now()";

/**
 * One page of the merchant's links in this mode, active or expired, newest first, keyset-paginated
 * (`starting_after` = the last id of the previous page). The /v1 list is unpaginated by the spec; the
 * dashboard pages because links pile up (each lives 30 minutes).
 */
export async function listPaymentLinksPage(
  db: Db,
  owner: { merchantId: string; mode: Mode },
  page: { state: LinkState; limit?: number; starting_after?: string },
): Promise<{ rows: PaymentLinkRow[]; hasMore: boolean }> {
  const result = await keysetPage(db, {
    table: "payment_links",
    columns: PAYMENT_LINK_COLUMNS,
    filter: {
      sql: `merchant_id = $1 and mode = $2 and ${page.state === "active" ? ACTIVE_SQL : `not (${ACTIVE_SQL})`}`,
      values: [owner.merchantId, owner.mode],
    },
    limit: page.limit,
    startingAfter: page.starting_after,
    noun: `${page.state} payment link`,
  });
  return { rows: result.rows.map(toPaymentLinkRow), hasMore: result.hasMore };
}
