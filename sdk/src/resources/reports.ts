import type { RequestOptions, Transport } from "../transport.js";
import type { Statement, StatementParams } from "../types.js";

/** `/v1/reports`: a period's statement per chain. */
export class Reports {
  constructor(private readonly http: Transport) {}

  /** `from` included, `to` excluded: Unix seconds, an ISO 8601 date-time with its offset, or a date (UTC). */
  statement(params: StatementParams, options?: RequestOptions) {
    return this.http.request<Statement>({ method: "GET", path: "/v1/reports/statement", query: params, options });
  }
}
