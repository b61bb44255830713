import type { RequestOptions, Transport } from "../transport.js";
import type {
  Deposit,
  DepositAddress,
  DepositAddressCreateParams,
  DepositAddressList,
  DepositAddressListParams,
  DepositAddressUpdateParams,
  DepositList,
  DepositListParams,
  DepositRescan,
  DepositRescanParams,
} from "../types.js";

const pathOf = (id: string) => `/v1/deposit_addresses/${encodeURIComponent(id)}`;

/** `/v1/deposit_addresses`: a customer's permanent address per chain. */
export class DepositAddresses {
  constructor(private readonly http: Transport) {}

  /** With `customer`, asking again for the customer's address on the chain returns the same one. */
  create(params: DepositAddressCreateParams, options?: RequestOptions) {
    return this.http.request<DepositAddress>({ method: "POST", path: "/v1/deposit_addresses", body: params, options });
  }

  retrieve(id: string, options?: RequestOptions) {
    return this.http.request<DepositAddress>({ method: "GET", path: pathOf(id), options });
  }

  /** `status: "disabled"` flags the address; it is still watched and its deposits credited. */
  update(id: string, params: DepositAddressUpdateParams, options?: RequestOptions) {
    return this.http.request<DepositAddress>({ method: "POST", path: pathOf(id), body: params, options });
  }

  /** Newest first; `customer`, `chain`, `status` and `address` narrow it. Iterate with `for await` for every page. */
  list(params: DepositAddressListParams = {}, options?: RequestOptions) {
    return this.http.list<DepositAddressList>("/v1/deposit_addresses", params, options);
  }
}

/** `/v1/deposits`: every transfer to a deposit address. */
export class Deposits {
  constructor(private readonly http: Transport) {}

  retrieve(id: string, options?: RequestOptions) {
    return this.http.request<Deposit>({ method: "GET", path: `/v1/deposits/${encodeURIComponent(id)}`, options });
  }

  /** Reads one transaction again: its transfers to your deposit addresses the watcher missed, recorded once. */
  rescan(params: DepositRescanParams, options?: RequestOptions) {
    return this.http.request<DepositRescan>({ method: "POST", path: "/v1/deposits/rescan", body: params, options });
  }

  /** Newest first; `deposit_address`, `customer`, `chain`, `status` and `tx_hash` narrow it. */
  list(params: DepositListParams = {}, options?: RequestOptions) {
    return this.http.list<DepositList>("/v1/deposits", params, options);
  }
}
