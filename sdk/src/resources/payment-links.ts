import type { RequestOptions, Transport } from "../transport.js";
import type { PaymentLink, PaymentLinkCreateParams, PaymentLinkList } from "../types.js";

/** `/v1/payment-links` */
export class PaymentLinks {
  constructor(private readonly http: Transport) {}

  create(params: PaymentLinkCreateParams, options?: RequestOptions) {
    return this.http.request<PaymentLink>({ method: "POST", path: "/v1/payment-links", body: params, options });
  }

  retrieve(id: string, options?: RequestOptions) {
    const path = `/v1/payment-links/${encodeURIComponent(id)}`;
    return this.http.request<PaymentLink>({ method: "GET", path, options });
  }

  /** Every link, newest first, in one answer: this list has no pages. */
  list(options?: RequestOptions) {
    return this.http.request<PaymentLinkList>({ method: "GET", path: "/v1/payment-links", options });
  }
}
