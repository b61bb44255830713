import { invalidRequest, notFound } from "@/lib/kernel/domain-error";
import type { Db } from "@/lib/platform/db/client";
import { query } from "@/lib/platform/db/query";
import type { Mode } from "@/lib/kernel/mode";
import { getWebhookEndpoint } from "./manage-webhook-endpoint";
import { recordReplayAttempt } from "./record-replay-attempt";
import { sendToEndpoint } from "./send-to-endpoint";
import type { AttemptResult } from "./send-webhook";

type Owner = { merchantId: string; mode: Mode };

/**
 * Sends one event again to one endpoint, now, with its original id and body (receivers deduplicate it like
 * any retry), and records it as the next attempt of that delivery. Both are looked up by merchant and mode:
 * another merchant's or the other mode's is 404. A disabled endpoint is refused: it receives nothing.
 */
export async function resendEvent(
  db: Db,
  owner: Owner,
  ids: { endpointId: string; eventId: string },
  opts: { alsoInTransaction?: (tx: Db, result: AttemptResult) => Promise<void> } = {},
): Promise<AttemptResult> {
  const endpoint = await getWebhookEndpoint(db, owner, ids.endpointId);
  if (!endpoint.active) throw invalidRequest("This endpoint is disabled; enable it to send to it.", "id");
  const [event] = await query<{ id: string; body: string }>(
    db,
    "select id, body from events where id = $1 and merchant_id = $2 and mode = $3",
    [ids.eventId, owner.merchantId, owner.mode],
  );
  if (!event) throw notFound("event", ids.eventId);
  const result = await sendToEndpoint(
    { url: endpoint.url, encryptedSecret: endpoint.encryptedSecret, mode: owner.mode },
    event.body,
  );
  const also = opts.alsoInTransaction;
  await recordReplayAttempt(db, owner, event.id, endpoint.id, result, also && ((tx) => also(tx, result)));
  return result;
}
