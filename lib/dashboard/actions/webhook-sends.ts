import type { Db } from "@/lib/platform/db/client";
import { recordAudit } from "@/lib/identity/users/audit";
import { resendEvent } from "@/lib/notify/webhooks/resend-event";
import { sendTestEvent } from "@/lib/notify/webhooks/send-test-event";
import type { AttemptResult } from "@/lib/notify/webhooks/send-webhook";
import { assertCan, type DashboardActor, ownerOf } from "@/lib/identity/auth/dashboard-actor";

/** What the receiver answered, for the message next to the button. */
export function describeAttempt(result: AttemptResult): string {
  const outcome = result.statusCode !== null ? `HTTP ${result.statusCode}` : (result.error ?? "no response");
  return `${result.success ? "Delivered" : "Failed"}: ${outcome} in ${result.durationMs} ms.`;
}

/** Resend of one event to one endpoint (webhooks:write), audited in the attempt's transaction. */
export async function resendDashboardEvent(
  db: Db,
  actor: DashboardActor,
  ids: { endpointId: string; eventId: string },
): Promise<AttemptResult> {
  assertCan(actor, "webhooks:write");
  return resendEvent(db, ownerOf(actor), ids, {
    alsoInTransaction: (tx) =>
      recordAudit(tx, actor, {
        action: "webhook_event.resent",
        target: ids.eventId,
        details: { endpoint: ids.endpointId },
      }),
  });
}

/** A test event (webhook_endpoint.test) sent to one endpoint (webhooks:write), audited with the event. */
export async function sendDashboardTestEvent(
  db: Db,
  actor: DashboardActor,
  endpointId: string,
): Promise<{ eventId: string; result: AttemptResult }> {
  assertCan(actor, "webhooks:write");
  return sendTestEvent(db, ownerOf(actor), endpointId, {
    alsoInTransaction: (tx) => recordAudit(tx, actor, { action: "webhook_endpoint.test_sent", target: endpointId }),
  });
}
