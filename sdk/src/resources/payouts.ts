import type { RequestOptions, Transport } from "../transport.js";
import type { Payout, PayoutCreateParams, PayoutList, PayoutListParams } from "../types.js";

/** `/v1/payouts` (their own rate class: 10 requests per 60 s per key). */
export class Payouts {
  constructor(private readonly http: Transport) {}

  create(params: PayoutCreateParams, options?: RequestOptions) {
    return this.http.request<Payout>({ method: "POST", path: "/v1/payouts", body: params, options });
  }

  retrieve(id: string, options?: RequestOptions) {
    return this.http.request<Payout>({ method: "GET", path: `/v1/payouts/${encodeURIComponent(id)}`, options });
  }

  list(params: PayoutListParams = {}, options?: RequestOptions) {
    return this.http.list<PayoutList>("/v1/payouts", params, options);
  }
}
