// The event types live in lib/events/event-types.ts; this re-export serves webhook-endpoint-row.ts until
// that file's rewrite imports them from there.
export type { EventType } from "@/lib/events/event-types";
