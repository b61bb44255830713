import { z } from "zod";
import type { Scope } from "@/lib/identity/api-keys/scopes";
import { paginationQuery } from "@/lib/kernel/schemas/pagination";
import { EVENT_TYPES } from "@/lib/notify/events/event-types";
import { createCustomerBody, listCustomersQuery, updateCustomerBody } from "@/lib/money-in/customers/schemas";
import {
  createDepositAddressBody,
  listDepositAddressesQuery,
  listDepositsQuery,
  rescanDepositsBody,
  updateDepositAddressBody,
} from "@/lib/money-in/deposit-addresses/schemas";
import { createPaymentLinkBody, listPaymentLinksQuery } from "@/lib/money-in/payment-links/schemas";
import { createPaymentBody, listPaymentsQuery } from "@/lib/money-in/payments/schemas";
import { createPayoutBody, listPayoutsQuery } from "@/lib/money-out/payouts/schemas";
import { createRefundBody, listRefundsQuery } from "@/lib/money-out/refunds/schemas";
import {
  congestBody,
  dropBody,
  faucetBody,
  freezeBody,
  mineBody,
  reorgBody,
  simulateBody,
  simulateDepositBody,
} from "@/lib/http/api/sandbox-schemas";
import { createWebhookBody, listWebhooksQuery, updateWebhookBody } from "@/lib/notify/webhooks/schemas";

/** What a path parameter names; the fuzzer plugs in the caller's ids, another merchant's, and junk. */
export type IdKind =
  | "payment"
  | "link"
  | "event"
  | "payout"
  | "refund"
  | "customer"
  | "deposit_address"
  | "deposit"
  | "webhook"
  | "chain";

export interface Endpoint {
  method: "GET" | "POST" | "DELETE";
  /** With `{kind}` placeholders, e.g. /v1/payments/{payment}/replay. */
  path: string;
  body?: z.ZodType;
  query?: z.ZodType;
  /**
   * Sandbox helpers that move coins or blocks on the run's shared chains: their handlers run only on a
   * target that does not exist (the fuzzer never reorgs or mines what other test files rely on).
   */
  touchesChains?: boolean;
  /** The scopes a key needs (all of them), as the route file declares. */
  scopes: Scope[];
}

const emptyQuery = z.strictObject({});
const eventsQuery = z.strictObject({ ...paginationQuery, type: z.enum(EVENT_TYPES).optional() });
const attemptsQuery = z.strictObject(paginationQuery);

/** Every /v1 route (app/v1/**) with the schemas its route file validates against. */
export const ENDPOINTS: Endpoint[] = [
  { method: "GET", path: "/v1/balances", query: emptyQuery, scopes: ["balances:read"] },
  { method: "GET", path: "/v1/events", query: eventsQuery, scopes: ["events:read"] },
  { method: "GET", path: "/v1/events/{event}", query: emptyQuery, scopes: ["events:read"] },
  {
    method: "GET",
    path: "/v1/events/{event}/attempts",
    query: attemptsQuery,
    scopes: ["events:read", "webhooks:read"],
  },
  { method: "GET", path: "/v1/payment-links", query: listPaymentLinksQuery, scopes: ["payment_links:read"] },
  { method: "POST", path: "/v1/payment-links", body: createPaymentLinkBody, scopes: ["payment_links:write"] },
  { method: "GET", path: "/v1/payment-links/{link}", query: emptyQuery, scopes: ["payment_links:read"] },
  { method: "GET", path: "/v1/payments", query: listPaymentsQuery, scopes: ["payments:read"] },
  { method: "POST", path: "/v1/payments", body: createPaymentBody, scopes: ["payments:write"] },
  { method: "GET", path: "/v1/payments/{payment}", query: emptyQuery, scopes: ["payments:read"] },
  { method: "POST", path: "/v1/payments/{payment}/replay", body: z.strictObject({}), scopes: ["payments:write"] },
  { method: "GET", path: "/v1/payouts", query: listPayoutsQuery, scopes: ["payouts:read"] },
  { method: "POST", path: "/v1/payouts", body: createPayoutBody, scopes: ["payouts:write"] },
  { method: "GET", path: "/v1/payouts/{payout}", query: emptyQuery, scopes: ["payouts:read"] },
  { method: "GET", path: "/v1/refunds", query: listRefundsQuery, scopes: ["refunds:read"] },
  { method: "POST", path: "/v1/refunds", body: createRefundBody, scopes: ["refunds:write"] },
  { method: "GET", path: "/v1/refunds/{refund}", query: emptyQuery, scopes: ["refunds:read"] },
  { method: "POST", path: "/v1/refunds/{refund}/cancel", body: z.strictObject({}), scopes: ["refunds:write"] },
  { method: "GET", path: "/v1/customers", query: listCustomersQuery, scopes: ["customers:read"] },
  { method: "POST", path: "/v1/customers", body: createCustomerBody, scopes: ["customers:write"] },
  { method: "GET", path: "/v1/customers/{customer}", query: emptyQuery, scopes: ["customers:read"] },
  { method: "POST", path: "/v1/customers/{customer}", body: updateCustomerBody, scopes: ["customers:write"] },
  { method: "DELETE", path: "/v1/customers/{customer}", query: emptyQuery, scopes: ["customers:write"] },
  { method: "GET", path: "/v1/deposit_addresses", query: listDepositAddressesQuery, scopes: ["deposits:read"] },
  { method: "POST", path: "/v1/deposit_addresses", body: createDepositAddressBody, scopes: ["deposits:write"] },
  {
    method: "GET",
    path: "/v1/deposit_addresses/{deposit_address}",
    query: emptyQuery,
    scopes: ["deposits:read"],
  },
  {
    method: "POST",
    path: "/v1/deposit_addresses/{deposit_address}",
    body: updateDepositAddressBody,
    scopes: ["deposits:write"],
  },
  { method: "GET", path: "/v1/deposits", query: listDepositsQuery, scopes: ["deposits:read"] },
  { method: "GET", path: "/v1/deposits/{deposit}", query: emptyQuery, scopes: ["deposits:read"] },
  { method: "POST", path: "/v1/deposits/rescan", body: rescanDepositsBody, scopes: ["deposits:write"] },
  { method: "GET", path: "/v1/sandbox/chains", query: emptyQuery, scopes: ["payments:read"] },
  {
    method: "POST",
    path: "/v1/sandbox/chains/{chain}/congest",
    body: congestBody,
    touchesChains: true,
    scopes: ["sandbox:chains"],
  },
  {
    method: "POST",
    path: "/v1/sandbox/chains/{chain}/drop",
    body: dropBody,
    touchesChains: true,
    scopes: ["sandbox:chains"],
  },
  {
    method: "POST",
    path: "/v1/sandbox/chains/{chain}/freeze",
    body: freezeBody,
    touchesChains: true,
    scopes: ["sandbox:chains"],
  },
  {
    method: "POST",
    path: "/v1/sandbox/chains/{chain}/mine",
    body: mineBody,
    touchesChains: true,
    scopes: ["payments:write"],
  },
  {
    method: "POST",
    path: "/v1/sandbox/chains/{chain}/reorg",
    body: reorgBody,
    touchesChains: true,
    scopes: ["sandbox:chains"],
  },
  {
    method: "POST",
    path: "/v1/sandbox/chains/{chain}/unfreeze",
    body: freezeBody,
    touchesChains: true,
    scopes: ["sandbox:chains"],
  },
  { method: "POST", path: "/v1/sandbox/faucet", body: faucetBody, touchesChains: true, scopes: ["payments:write"] },
  {
    method: "POST",
    path: "/v1/sandbox/payments/{payment}/simulate",
    body: simulateBody,
    touchesChains: true,
    scopes: ["payments:write"],
  },
  {
    method: "POST",
    path: "/v1/sandbox/deposit_addresses/{deposit_address}/simulate",
    body: simulateDepositBody,
    touchesChains: true,
    scopes: ["deposits:write"],
  },
  { method: "GET", path: "/v1/webhooks", query: listWebhooksQuery, scopes: ["webhooks:read"] },
  { method: "POST", path: "/v1/webhooks", body: createWebhookBody, scopes: ["webhooks:write"] },
  { method: "GET", path: "/v1/webhooks/{webhook}", query: emptyQuery, scopes: ["webhooks:read"] },
  { method: "POST", path: "/v1/webhooks/{webhook}", body: updateWebhookBody, scopes: ["webhooks:write"] },
  { method: "DELETE", path: "/v1/webhooks/{webhook}", query: emptyQuery, scopes: ["webhooks:write"] },
  { method: "GET", path: "/v1/webhooks/{webhook}/attempts", query: attemptsQuery, scopes: ["webhooks:read"] },
];

/** The label counts are kept under: method and template. */
export const endpointLabel = (e: Endpoint) => `${e.method} ${e.path}`;

export const idKindsOf = (e: Endpoint): IdKind[] => [...e.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1] as IdKind);
