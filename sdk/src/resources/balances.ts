import type { RequestOptions, Transport } from "../transport.js";
import type { BalanceList } from "../types.js";

/** `/v1/balances` */
export class Balances {
  constructor(private readonly http: Transport) {}

  /** One entry per chain enabled for the key's mode, in one answer: this list has no pages. */
  list(options?: RequestOptions) {
    return this.http.request<BalanceList>({ method: "GET", path: "/v1/balances", options });
  }
}
