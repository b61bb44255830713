import type { RequestOptions, Transport } from "../transport.js";
import type { AttemptListParams, Event, EventList, EventListParams, WebhookAttemptList } from "../types.js";

const pathOf = (id: string) => `/v1/events/${encodeURIComponent(id)}`;

/** `/v1/events` */
export class Events {
  constructor(private readonly http: Transport) {}

  /** The event exactly as it was delivered. */
  retrieve(id: string, options?: RequestOptions) {
    return this.http.request<Event>({ method: "GET", path: pathOf(id), options });
  }

  list(params: EventListParams = {}, options?: RequestOptions) {
    return this.http.list<EventList>("/v1/events", params, options);
  }

  /** Every attempt to deliver this event, to any endpoint, newest first (needs `webhooks:read` too). */
  attempts(id: string, params: AttemptListParams = {}, options?: RequestOptions) {
    return this.http.list<WebhookAttemptList>(`${pathOf(id)}/attempts`, params, options);
  }
}
