import type { RequestOptions, Transport } from "../transport.js";
import type { ChainList } from "../types.js";

/** `/v1/chains` */
export class Chains {
  constructor(private readonly http: Transport) {}

  /** Each chain enabled for the key's mode: its confirmation policy and its watcher's health. */
  list(options?: RequestOptions) {
    return this.http.request<ChainList>({ method: "GET", path: "/v1/chains", options });
  }
}
