import { BalanceTransactions } from "./resources/balance-transactions.js";
import { Balances } from "./resources/balances.js";
import { Reports } from "./resources/reports.js";
import { Chains } from "./resources/chains.js";
import { Events } from "./resources/events.js";
import { Exports } from "./resources/exports.js";
import { PaymentLinks } from "./resources/payment-links.js";
import { Payments } from "./resources/payments.js";
import { Payouts } from "./resources/payouts.js";
import { Customers } from "./resources/customers.js";
import { DepositAddresses, Deposits } from "./resources/deposit-addresses.js";
import { Refunds } from "./resources/refunds.js";
import { Sandbox } from "./resources/sandbox.js";
import { WebhookEndpoints } from "./resources/webhook-endpoints.js";
import { type RequestOptions, Transport } from "./transport.js";
import type { SearchParams, SearchResultList } from "./types.js";
import { webhooks } from "./webhooks.js";

export interface ClientOptions {
  /** The service's address, without `/v1` (default `http://localhost:3000`). */
  baseUrl?: string;
  /** Retries after a network error, a 429 or a 5xx, with exponential backoff and full jitter (default 2). */
  maxRetries?: number;
  /** Per attempt (default 60 s). */
  timeoutMs?: number;
  /** A `fetch` of your own (default: the global one). */
  fetch?: typeof fetch;
}

/** The `/v1` API with one key: `new Client("mnt_test_sk_…", { baseUrl })`. */
export class Client {
  readonly payments: Payments;
  readonly paymentLinks: PaymentLinks;
  readonly balances: Balances;
  readonly balanceTransactions: BalanceTransactions;
  readonly reports: Reports;
  readonly exports: Exports;
  readonly chains: Chains;
  readonly payouts: Payouts;
  readonly refunds: Refunds;
  readonly customers: Customers;
  readonly depositAddresses: DepositAddresses;
  readonly deposits: Deposits;
  readonly webhookEndpoints: WebhookEndpoints;
  readonly events: Events;
  readonly sandbox: Sandbox;
  /** Payments, payouts and refunds by id, address, transaction hash, amount, metadata or description. */
  search(params: SearchParams, options?: RequestOptions) {
    return this.http.request<SearchResultList>({ method: "GET", path: "/v1/search", query: params, options });
  }

  /** Verifying deliveries needs no key; the same functions are exported as `webhooks`. */
  readonly webhooks = webhooks;
  private readonly http: Transport;

  constructor(apiKey: string, options: ClientOptions = {}) {
    if (typeof apiKey !== "string" || apiKey === "")
      throw new TypeError("new Client(apiKey): the API key (mnt_test_sk_… or mnt_live_sk_…) is missing.");
    const maxRetries = options.maxRetries ?? 2;
    if (!Number.isInteger(maxRetries) || maxRetries < 0) throw new TypeError("maxRetries must be an integer ≥ 0.");
    const http = new Transport({
      apiKey,
      baseUrl: (options.baseUrl ?? "http://localhost:3000").replace(/\/+$/, ""),
      maxRetries,
      timeoutMs: options.timeoutMs ?? 60_000,
      fetch: options.fetch ?? ((input, init) => globalThis.fetch(input, init)),
    });
    this.http = http;
    this.payments = new Payments(http);
    this.paymentLinks = new PaymentLinks(http);
    this.balances = new Balances(http);
    this.balanceTransactions = new BalanceTransactions(http);
    this.reports = new Reports(http);
    this.exports = new Exports(http);
    this.chains = new Chains(http);
    this.payouts = new Payouts(http);
    this.refunds = new Refunds(http);
    this.customers = new Customers(http);
    this.depositAddresses = new DepositAddresses(http);
    this.deposits = new Deposits(http);
    this.webhookEndpoints = new WebhookEndpoints(http);
    this.events = new Events(http);
    this.sandbox = new Sandbox(http);
  }
}
