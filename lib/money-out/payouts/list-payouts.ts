import type { Mode } from "@/lib/kernel/mode";
import { listCauses } from "@/lib/money-out/transfers/list-causes";
import type { Db } from "@/lib/platform/db/client";
import { PAYOUT_KIND } from "./payout-kind";
import type { PayoutRow } from "./payout-row";
import type { ListPayoutsQuery } from "./schemas";

/** Newest first, narrowed by the API's filters (docs/API.md#filters). */
export const listPayouts = (
  db: Db,
  owner: { merchantId: string; mode: Mode },
  page: Partial<ListPayoutsQuery>,
): Promise<{ rows: PayoutRow[]; hasMore: boolean }> => listCauses(db, PAYOUT_KIND, owner, page);
