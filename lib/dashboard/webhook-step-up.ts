import type { DashboardActor } from "./dashboard-actor";

/** Live endpoints need step-up (a second factor within 5 minutes), not built yet: the API makes them until then. */
export const LIVE_WEBHOOKS_NOTE =
  "Live webhook endpoints are added with a live API key (POST /v1/webhooks) until second factors are in.";

/**
 * Why this actor may not add an endpoint now, or null. THE one place to swap for the step-up check
 * (lib/auth/step-up.ts) once it exists: sandbox never needs it, live will need a recent second factor.
 */
export function webhookStepUpRefusal(actor: Pick<DashboardActor, "mode">): string | null {
  return actor.mode === "live" ? LIVE_WEBHOOKS_NOTE : null;
}
