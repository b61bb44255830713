import type { RequestOptions, Transport } from "../transport.js";
import type { Refund, RefundCreateParams, RefundList, RefundListParams } from "../types.js";

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
}
