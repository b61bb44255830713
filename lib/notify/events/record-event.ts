import { newId } from "@/lib/kernel/random";
import { type Db, inTransaction } from "@/lib/platform/db/client";
import { query } from "@/lib/platform/db/query";
import type { Mode } from "@/lib/kernel/mode";
import type { EventType } from "./event-types";
import { fanOutEvents } from "./fan-out-event";

export interface EventObject {
  id: string;
  object: "event";
  type: EventType;
  livemode: boolean;
  created: number;
  data: { object: unknown };
}

export interface EventInput {
  merchantId: string;
  mode: Mode;
  type: EventType;
  /** The payment or payout as its API serializer renders it at this moment. */
  object: { id: string };
}

// Events recorded in one process get strictly increasing timestamps, so several transitions of one
// object in one transaction (pending → confirming → confirmed in a single scan) list in their order.
let lastCreatedMs = 0;
function nextCreatedAt(): Date {
  lastCreatedMs = Math.max(Date.now(), lastCreatedMs + 1);
  return new Date(lastCreatedMs);
}

/**
 * Records events in the caller's transaction (so they exist if and only if the state change commits),
 * with their deliveries to the matching endpoints, in a fixed number of statements however many there
 * are. Each body is frozen as text so every delivery of it carries the same bytes.
 */
export async function recordEvents(db: Db, inputs: EventInput[]): Promise<EventObject[]> {
  if (inputs.length === 0) return [];
  const created = inputs.map(() => nextCreatedAt());
  const events: EventObject[] = inputs.map((input, i) => ({
    id: newId("evt_"),
    object: "event",
    type: input.type,
    livemode: input.mode === "live",
    created: Math.floor(created[i]!.getTime() / 1000),
    data: { object: input.object },
  }));
  // One transaction (joined when the caller has one): an event never commits without its deliveries. The
  // endpoints are read while the insert is in flight: on a pipelining connection, one round trip for both.
  await inTransaction(db, async (tx) => {
    const inserted = query(
      tx,
      `insert into events (id, merchant_id, mode, type, object_id, body, created_at)
     select * from unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::timestamptz[])`,
      [
        events.map((e) => e.id),
        inputs.map((i) => i.merchantId),
        inputs.map((i) => i.mode),
        inputs.map((i) => i.type),
        inputs.map((i) => i.object.id),
        events.map((e) => JSON.stringify(e)),
        created,
      ],
    );
    const fannedOut = fanOutEvents(
      tx,
      events.map((e, i) => ({ id: e.id, type: e.type, merchantId: inputs[i]!.merchantId, mode: inputs[i]!.mode })),
    );
    // Both settle before the transaction goes on; the insert's failure, sent first, is the one reported.
    const [insert, fanOut] = await Promise.allSettled([inserted, fannedOut]);
    if (insert.status === "rejected") throw insert.reason;
    if (fanOut.status === "rejected") throw fanOut.reason;
  });
  return events;
}

export async function recordEvent(db: Db, input: EventInput): Promise<EventObject> {
  return (await recordEvents(db, [input]))[0]!;
}
