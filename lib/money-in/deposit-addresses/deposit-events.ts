import type { Mode } from "@/lib/kernel/mode";
import { recordEvents } from "@/lib/notify/events/record-event";
import type { Db } from "@/lib/platform/db/client";
import { loadDepositViews } from "./deposit-view";
import { serializeDeposit } from "./serialize-deposit";

/**
 * Records one event per deposit, each carrying the deposit as it is now, in the caller's transaction (with the
 * change that causes it): `deposit.pending` when recorded (or mined again), `deposit.confirmed` when credited,
 * `deposit.reversed` when a reorganization removed it. Dust (ignored_below_minimum) emits none.
 */
export async function recordDepositEvents(
  tx: Db,
  mode: Mode,
  type: "deposit.pending" | "deposit.confirmed" | "deposit.reversed",
  depositIds: string[],
): Promise<void> {
  const views = (await loadDepositViews(tx, depositIds)).filter((d) => d.status !== "ignored");
  await recordEvents(
    tx,
    views.map((d) => ({ merchantId: d.merchantId, mode, type, object: serializeDeposit(d) })),
  );
}
