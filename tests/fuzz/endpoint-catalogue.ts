import { z } from "zod";
import { paginationQuery } from "@/lib/api/pagination";
import { EVENT_TYPES } from "@/lib/events/event-types";
import { createPaymentLinkBody, listPaymentLinksQuery } from "@/lib/payment-links/schemas";
import { createPaymentBody, listPaymentsQuery } from "@/lib/payments/schemas";
import { createPayoutBody, listPayoutsQuery } from "@/lib/payouts/schemas";
import {
  congestBody,
  dropBody,
  faucetBody,
  freezeBody,
  mineBody,
  reorgBody,
  simulateBody,
} from "@/lib/sandbox/schemas";
import { createWebhookBody, listWebhooksQuery, updateWebhookBody } from "@/lib/webhooks/schemas";

/** What a path parameter names; the fuzzer plugs in the caller's ids, another merchant's, and junk. */
export type IdKind = "payment" | "link" | "event" | "payout" | "webhook" | "chain";

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
}

const emptyQuery = z.strictObject({});
const eventsQuery = z.strictObject({ ...paginationQuery, type: z.enum(EVENT_TYPES).optional() });
const attemptsQuery = z.strictObject(paginationQuery);

/** Every /v1 route (app/v1/**) with the schemas its route file validates against. */
export const ENDPOINTS: Endpoint[] = [
  { method: "GET", path: "/v1/balances", query: emptyQuery },
  { method: "GET", path: "/v1/events", query: eventsQuery },
  { method: "GET", path: "/v1/events/{event}", query: emptyQuery },
  { method: "GET", path: "/v1/events/{event}/attempts", query: attemptsQuery },
  { method: "GET", path: "/v1/payment-links", query: listPaymentLinksQuery },
  { method: "POST", path: "/v1/payment-links", body: createPaymentLinkBody },
  { method: "GET", path: "/v1/payment-links/{link}", query: emptyQuery },
  { method: "GET", path: "/v1/payments", query: listPaymentsQuery },
  { method: "POST", path: "/v1/payments", body: createPaymentBody },
  { method: "GET", path: "/v1/payments/{payment}", query: emptyQuery },
  { method: "POST", path: "/v1/payments/{payment}/replay", body: z.strictObject({}) },
  { method: "GET", path: "/v1/payouts", query: listPayoutsQuery },
  { method: "POST", path: "/v1/payouts", body: createPayoutBody },
  { method: "GET", path: "/v1/payouts/{payout}", query: emptyQuery },
  { method: "GET", path: "/v1/sandbox/chains", query: emptyQuery },
  { method: "POST", path: "/v1/sandbox/chains/{chain}/congest", body: congestBody, touchesChains: true },
  { method: "POST", path: "/v1/sandbox/chains/{chain}/drop", body: dropBody, touchesChains: true },
  { method: "POST", path: "/v1/sandbox/chains/{chain}/freeze", body: freezeBody, touchesChains: true },
  { method: "POST", path: "/v1/sandbox/chains/{chain}/mine", body: mineBody, touchesChains: true },
  { method: "POST", path: "/v1/sandbox/chains/{chain}/reorg", body: reorgBody, touchesChains: true },
  { method: "POST", path: "/v1/sandbox/chains/{chain}/unfreeze", body: freezeBody, touchesChains: true },
  { method: "POST", path: "/v1/sandbox/faucet", body: faucetBody, touchesChains: true },
  { method: "POST", path: "/v1/sandbox/payments/{payment}/simulate", body: simulateBody, touchesChains: true },
  { method: "GET", path: "/v1/webhooks", query: listWebhooksQuery },
  { method: "POST", path: "/v1/webhooks", body: createWebhookBody },
  { method: "GET", path: "/v1/webhooks/{webhook}", query: emptyQuery },
  { method: "POST", path: "/v1/webhooks/{webhook}", body: updateWebhookBody },
  { method: "DELETE", path: "/v1/webhooks/{webhook}", query: emptyQuery },
  { method: "GET", path: "/v1/webhooks/{webhook}/attempts", query: attemptsQuery },
];

/** The label counts are kept under: method and template. */
export const endpointLabel = (e: Endpoint) => `${e.method} ${e.path}`;

export const idKindsOf = (e: Endpoint): IdKind[] => [...e.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1] as IdKind);
