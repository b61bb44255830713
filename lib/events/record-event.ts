import { newId } from "@/lib/crypto/random";
import type { Db } from "@/lib/db/client";
import { query } from "@/lib/db/query";
import type { Mode } from "@/lib/keys/api-key-format";
import type { EventType } from "@/lib/webhooks/event-types";
import { fanOutEvent } from "@/lib/webhooks/fan-out-event";

export interface EventObject {
  id: string;
  object: "event";
  type: EventType;
  livemode: boolean;
  created: number;
  data: { object: unknown };
}

/**
 * Records an event in the caller's transaction (so it exists if and only if the state change commits),
 * with its deliveries to the matching endpoints.
 * `object` is the payment or payout as its API serializer renders it now; the event body is frozen as
 * text so every delivery of it carries the same bytes.
 */
export async function recordEvent(db: Db, input: { merchantId: string; mode: Mode; type: EventType; object: { id: string } }): Promise<EventObject> {
  const createdAt = new Date();
  const event: EventObject = {
    id: newId("evt_"),
    object: "event",
    type: input.type,
    livemode: input.mode === "live",
    created: Math.floor(createdAt.getTime() / 1000),
    data: { object: input.object },
  };
  await query(db, "insert into events (id, merchant_id, mode, type, object_id, body, created_at) values ($1, $2, $3, $4, $5, $6, $7)", [
    event.id,
    input.merchantId,
    input.mode,
    input.type,
    input.object.id,
    JSON.stringify(event),
    createdAt,
  ]);
  await fanOutEvent(db, { id: event.id, type: event.type, merchantId: input.merchantId, mode: input.mode });
  return event;
}
