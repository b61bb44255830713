import type { RequestOptions, Transport } from "../transport.js";
import type {
  Customer,
  CustomerCreateParams,
  CustomerList,
  CustomerListParams,
  CustomerUpdateParams,
  DeletedCustomer,
} from "../types.js";

const pathOf = (id: string) => `/v1/customers/${encodeURIComponent(id)}`;

/** `/v1/customers` */
export class Customers {
  constructor(private readonly http: Transport) {}

  /** `reference` is your own id for the customer: unique per mode, a second customer with it is refused. */
  create(params: CustomerCreateParams = {}, options?: RequestOptions) {
    return this.http.request<Customer>({ method: "POST", path: "/v1/customers", body: params, options });
  }

  retrieve(id: string, options?: RequestOptions) {
    return this.http.request<Customer>({ method: "GET", path: pathOf(id), options });
  }

  /** Fields not given are unchanged; `null` clears `name`, `email` or `reference`. */
  update(id: string, params: CustomerUpdateParams, options?: RequestOptions) {
    return this.http.request<Customer>({ method: "POST", path: pathOf(id), body: params, options });
  }

  del(id: string, options?: RequestOptions) {
    return this.http.request<DeletedCustomer>({ method: "DELETE", path: pathOf(id), options });
  }

  /** Newest first; `reference` and `email` narrow it. Iterate with `for await` for every page. */
  list(params: CustomerListParams = {}, options?: RequestOptions) {
    return this.http.list<CustomerList>("/v1/customers", params, options);
  }
}
