import type { RequestOptions, Transport } from "../transport.js";
import type { BalanceTransaction, BalanceTransactionList, BalanceTransactionListParams } from "../types.js";

/** `/v1/balance_transactions`: every movement of `available`, with the balance it left on its chain. */
export class BalanceTransactions {
  constructor(private readonly http: Transport) {}

  retrieve(id: string, options?: RequestOptions) {
    return this.http.request<BalanceTransaction>({
      method: "GET",
      path: `/v1/balance_transactions/${encodeURIComponent(id)}`,
      options,
    });
  }

  list(params: BalanceTransactionListParams = {}, options?: RequestOptions) {
    return this.http.list<BalanceTransactionList>("/v1/balance_transactions", params, options);
  }
}
