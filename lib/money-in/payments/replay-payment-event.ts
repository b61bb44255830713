import { invalidRequest } from "@/lib/kernel/domain-error";
import type { Db } from "@/lib/platform/db/client";
import { query } from "@/lib/platform/db/query";
import { type MatchingEndpoint, matchingEndpoints } from "@/lib/notify/events/fan-out-event";
import { log } from "@/lib/platform/log";
import type { Mode } from "@/lib/kernel/mode";
import { getPayment } from "@/lib/money-in/payments/get-payment";
import { recordReplayAttempt } from "../../notify/webhooks/record-replay-attempt";
import { sendToEndpoint } from "../../notify/webhooks/send-to-endpoint";
import type { AttemptResult } from "../../notify/webhooks/send-webhook";

type Owner = { merchantId: string; mode: Mode };

/** What a replay sends: the event of the payment's current status and the endpoints it goes to. */
export interface PreparedReplay {
  type: string;
  event: { id: string; body: string };
  endpoints: MatchingEndpoint[];
}

export interface ReplayResult {
  event: string;
  dispatched: number;
  deliveries: { endpointId: string; url: string; success: boolean; statusCode: number }[];
}

/*
 * Replay (POST /v1/payments/:id/replay) re-sends the event of the payment's current status, synchronously,
 * to every active endpoint whose filter matches, and answers with the outcome of each. The event keeps its
 * original id and body (as Stripe's resend does), so receivers deduplicate it like any retry. It runs in
 * the pipeline's three phases (lib/http/api/execute-phased-write.ts): no connection is held while receivers
 * answer (up to 10 s each).
 */

/** Phase 1, in the request's first transaction: what to send and where. */
export async function prepareReplay(db: Db, owner: Owner, paymentId: string): Promise<PreparedReplay> {
  const payment = await getPayment(db, owner, paymentId);
  const type = `payment.${payment.status}`;
  const [event] = await query<{ id: string; body: string }>(
    db,
    "select id, body from events where object_id = $1 and type = $2 order by created_at desc, id desc limit 1",
    [payment.id, type],
  );
  if (!event) throw invalidRequest(`Payment ${payment.id} has no ${type} event to replay.`, "id");
  return { type, event, endpoints: await matchingEndpoints(db, owner, type) };
}

/**
 * Phase 2, outside any transaction: sends to every endpoint in parallel and records each endpoint's attempt
 * as it ends, in a short transaction of its own (record-replay-attempt.ts), so one that cannot be recorded
 * undoes no other's. A recording failure is logged; the answer still reports what the receiver said.
 */
export async function sendReplay(db: Db, owner: Owner, prepared: PreparedReplay): Promise<AttemptResult[]> {
  return Promise.all(
    prepared.endpoints.map(async (endpoint) => {
      const result = await sendToEndpoint(
        { url: endpoint.url, encryptedSecret: endpoint.encrypted_secret, mode: owner.mode },
        prepared.event.body,
      );
      await recordReplayAttempt(db, owner, prepared.event.id, endpoint.id, result).catch((err: unknown) =>
        log.error("recording a replay attempt failed", { endpoint_id: endpoint.id, error: String(err) }),
      );
      return result;
    }),
  );
}

/** Phase 3: the answer. `statusCode` is 0 when no HTTP response came back. */
export function replayResult(prepared: PreparedReplay, results: AttemptResult[]): ReplayResult {
  return {
    event: prepared.type,
    dispatched: prepared.endpoints.length,
    deliveries: prepared.endpoints.map((e, i) => ({
      endpointId: e.id,
      url: e.url,
      success: results[i]!.success,
      statusCode: results[i]!.statusCode ?? 0,
    })),
  };
}
