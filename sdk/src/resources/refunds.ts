import type { RequestOptions, Transport } from "../transport.js";
import type {
  Refund,
  RefundCreateParams,
  RefundList,
  RefundListParams,
  RefundRegenerateClaimUrlParams,
} from "../types.js";

/** `/v1/refunds`: send a payment's USDT back to the payer (by default through a claim link the payer opens). */
export class Refunds {
  constructor(private readonly http: Transport) {}

  create(params: RefundCreateParams, options?: RequestOptions) {
    return this.http.request<Refund>({ method: "POST", path: "/v1/refunds", body: params, options });
  }

  retrieve(id: string, options?: RequestOptions) {
    return this.http.request<Refund>({ method: "GET", path: `/v1/refunds/${encodeURIComponent(id)}`, options });
  }

  list(params: RefundListParams = {}, options?: RequestOptions) {
    return this.http.list<RefundList>("/v1/refunds", params, options);
  }

  /** Only before its transfer is signed (`requires_action`, `pending`). */
  cancel(id: string, options?: RequestOptions) {
    return this.http.request<Refund>({
      method: "POST",
      path: `/v1/refunds/${encodeURIComponent(id)}/cancel`,
      body: {},
      options,
    });
  }

  /**
   * A new `claim_url` (and `claim_code` when one is required) for a refund waiting for the payer's address; the
   * old link and code stop working at once. Needs `refunds:write`.
   */
  regenerateClaimUrl(id: string, params: RefundRegenerateClaimUrlParams = {}, options?: RequestOptions) {
    return this.http.request<Refund>({
      method: "POST",
      path: `/v1/refunds/${encodeURIComponent(id)}/regenerate_claim_url`,
      body: params,
      options,
    });
  }
}
