import type { RequestOptions, Transport } from "../transport.js";
import type {
  AttemptListParams,
  DeletedWebhookEndpoint,
  WebhookAttemptList,
  WebhookEndpoint,
  WebhookEndpointCreateParams,
  WebhookEndpointList,
  WebhookEndpointListParams,
  WebhookEndpointUpdateParams,
  WebhookEndpointWithSecret,
  WebhookResend,
  WebhookResendParams,
} from "../types.js";

const pathOf = (id: string) => `/v1/webhooks/${encodeURIComponent(id)}`;

/** `/v1/webhooks` */
export class WebhookEndpoints {
  constructor(private readonly http: Transport) {}

  /** The answer carries the endpoint's `secret` (`whsec_…`), this once: store it. */
  create(params: WebhookEndpointCreateParams, options?: RequestOptions) {
    return this.http.request<WebhookEndpointWithSecret>({
      method: "POST",
      path: "/v1/webhooks",
      body: params,
      options,
    });
  }

  retrieve(id: string, options?: RequestOptions) {
    return this.http.request<WebhookEndpoint>({ method: "GET", path: pathOf(id), options });
  }

  /** Fields not given are unchanged. */
  update(id: string, params: WebhookEndpointUpdateParams, options?: RequestOptions) {
    return this.http.request<WebhookEndpoint>({ method: "POST", path: pathOf(id), body: params, options });
  }

  del(id: string, options?: RequestOptions) {
    return this.http.request<DeletedWebhookEndpoint>({ method: "DELETE", path: pathOf(id), options });
  }

  list(params: WebhookEndpointListParams = {}, options?: RequestOptions) {
    return this.http.list<WebhookEndpointList>("/v1/webhooks", params, options);
  }

  /**
   * Queues this endpoint's deliveries that gave up, of events created at or after `since` (unix seconds;
   * default 7 days ago), for one more attempt now: at most 500 per call, `has_more` says to call again.
   */
  resendFailed(id: string, params: WebhookResendParams = {}, options?: RequestOptions) {
    return this.http.request<WebhookResend>({
      method: "POST",
      path: `${pathOf(id)}/resend_failed`,
      body: params,
      options,
    });
  }

  /** Every attempt to send an event to this endpoint, newest first. */
  attempts(id: string, params: AttemptListParams = {}, options?: RequestOptions) {
    return this.http.list<WebhookAttemptList>(`${pathOf(id)}/attempts`, params, options);
  }
}
