import type { RequestOptions, Transport } from "../transport.js";
import type { Payment, PaymentCreateParams, PaymentList, PaymentListParams, ReplayResult } from "../types.js";

/** `/v1/payments` */
export class Payments {
  constructor(private readonly http: Transport) {}

  create(params: PaymentCreateParams, options?: RequestOptions) {
    return this.http.request<Payment>({ method: "POST", path: "/v1/payments", body: params, options });
  }

  retrieve(id: string, options?: RequestOptions) {
    return this.http.request<Payment>({ method: "GET", path: `/v1/payments/${encodeURIComponent(id)}`, options });
  }

  /** Newest first; list items are a subset of the payment (retrieve one for the rest). */
  list(params: PaymentListParams = {}, options?: RequestOptions) {
    return this.http.list<PaymentList>("/v1/payments", params, options);
  }

  /** Re-sends the event of the payment's current status to every matching endpoint, now. */
  replay(id: string, options?: RequestOptions) {
    const path = `/v1/payments/${encodeURIComponent(id)}/replay`;
    return this.http.request<ReplayResult>({ method: "POST", path, options });
  }
}
