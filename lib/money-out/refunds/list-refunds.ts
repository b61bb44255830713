import type { Mode } from "@/lib/kernel/mode";
import { listCauses } from "@/lib/money-out/transfers/list-causes";
import type { Db } from "@/lib/platform/db/client";
import { REFUND_KIND } from "./refund-kind";
import type { RefundRow } from "./refund-row";
import type { ListRefundsQuery } from "./schemas";

/** Newest first, optionally of one payment, narrowed by the API's filters (docs/API.md#filters). */
export const listRefunds = (
  db: Db,
  owner: { merchantId: string; mode: Mode },
  page: ListRefundsQuery,
): Promise<{ rows: RefundRow[]; hasMore: boolean }> =>
  listCauses(db, REFUND_KIND, owner, page, page.payment ? { payment_id: page.payment } : {});
