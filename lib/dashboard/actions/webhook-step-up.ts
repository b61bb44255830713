import { hasFreshStepUp, STEP_UP_MESSAGE } from "@/lib/identity/users/step-up";
import type { DashboardActor } from "@/lib/identity/auth/dashboard-actor";

/**
 * Why this actor may not add an endpoint now, or null: a live endpoint receives real payment events, so it
 * needs step-up (a second factor within 5 minutes, docs/DASHBOARD.md#step-up); sandbox never does.
 */
export function webhookStepUpRefusal(actor: Pick<DashboardActor, "mode" | "secondFactorAt">): string | null {
  return actor.mode === "live" && !hasFreshStepUp(actor) ? STEP_UP_MESSAGE : null;
}
