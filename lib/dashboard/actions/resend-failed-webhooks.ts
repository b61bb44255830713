import type { Mode } from "@/lib/kernel/mode";
import type { Db } from "@/lib/platform/db/client";
import { type Actor, actorFor, recordAudit } from "@/lib/identity/users/audit";
import { RESEND_DEFAULT_LOOKBACK_S } from "@/lib/notify/webhooks/schemas";
import { type ResendFailedResult, resendFailedDeliveries } from "@/lib/notify/webhooks/resend-failed-deliveries";

/**
 * Resend an endpoint's failed deliveries (the API's resend_failed, the dashboard's button) and record who did
 * it in the audit log, in the caller's transaction: an API key (named in the details) or a dashboard user.
 */
export async function resendFailedWithAudit(
  tx: Db,
  owner: { merchantId: string; mode: Mode },
  endpointId: string,
  since: number | undefined,
  by: { apiKeyId: string } | { actor: Actor },
): Promise<ResendFailedResult> {
  const from = since ?? Math.floor(Date.now() / 1000) - RESEND_DEFAULT_LOOKBACK_S;
  const result = await resendFailedDeliveries(tx, owner, endpointId, from);
  const actor = actorFor(owner.merchantId, by);
  await recordAudit(tx, actor, {
    action: "webhook.resend_failed",
    target: endpointId,
    details: {
      mode: owner.mode,
      since: from,
      queued: result.queued,
      has_more: result.has_more,
      ...("apiKeyId" in by ? { api_key: by.apiKeyId } : {}),
    },
  });
  return result;
}
