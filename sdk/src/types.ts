// The SDK's names for the API's objects and parameters, all derived from the types openapi-typescript
// generates from docs/openapi.json (src/generated/api.ts, `npm run generate`): a field the API adds or
// changes reaches these types with the next generation, never by hand.
import type { components, operations } from "./generated/api.js";

type Schemas = components["schemas"];
type Json<T> = T extends { content: { "application/json": infer B } } ? B : never;

/** The JSON body an operation accepts. */
export type RequestBody<Op extends keyof operations> = Json<operations[Op]["requestBody"]>;
/** The JSON body of an operation's 200 answer. */
export type ResponseBody<Op extends keyof operations> = operations[Op] extends { responses: { 200: infer R } }
  ? Json<R>
  : never;
/** Query parameters; the document types `limit` as the digits of a query string, the SDK takes a number. */
export type ListParams<Op extends keyof operations> = Omit<
  NonNullable<operations[Op]["parameters"]["query"]>,
  "limit"
> & { limit?: number };

export type Chain = NonNullable<Schemas["Payment"]["chain"]>;
export type ApiErrorBody = Schemas["Error"]["error"];

export type Payment = Schemas["Payment"];
export type PaymentListItem = Schemas["PaymentListItem"];
export type PaymentList = Schemas["PaymentList"];
export type ReplayResult = Schemas["ReplayResult"];
export type PaymentCreateParams = RequestBody<"createPayment">;
export type PaymentListParams = ListParams<"listPayments">;

export type PaymentLink = Schemas["PaymentLink"];
export type PaymentLinkList = Schemas["PaymentLinkList"];
export type PaymentLinkCreateParams = RequestBody<"createPaymentLink">;

export type Balance = Schemas["Balance"];
export type BalanceList = Schemas["BalanceList"];
export type BalanceTransaction = Schemas["BalanceTransaction"];
export type BalanceTransactionList = Schemas["BalanceTransactionList"];
export type BalanceTransactionListParams = ListParams<"listBalanceTransactions">;
export type Statement = Schemas["Statement"];
export type StatementParams = NonNullable<operations["retrieveStatement"]["parameters"]["query"]>;
export type SearchResultList = Schemas["SearchResultList"];
/** An export's query: its list's filters, `format` and `timezone`. */
export type ExportParams<
  Op extends "exportPayments" | "exportPayouts" | "exportRefunds" | "exportBalanceTransactions",
> = NonNullable<operations[Op]["parameters"]["query"]>;
export type SearchParams = ListParams<"search">;
export type ChainStatus = Schemas["Chain"];
export type ChainList = Schemas["ChainList"];

export type Payout = Schemas["Payout"];
export type PayoutList = Schemas["PayoutList"];
export type PayoutCreateParams = RequestBody<"createPayout">;
export type PayoutListParams = ListParams<"listPayouts">;

export type Refund = Schemas["Refund"];
export type RefundList = Schemas["RefundList"];
export type RefundCreateParams = RequestBody<"createRefund">;
export type RefundListParams = ListParams<"listRefunds">;
export type RefundRegenerateClaimUrlParams = RequestBody<"regenerateRefundClaimUrl">;

export type Customer = Schemas["Customer"];
export type CustomerList = Schemas["CustomerList"];
export type DeletedCustomer = Schemas["DeletedCustomer"];
export type CustomerCreateParams = RequestBody<"createCustomer">;
export type CustomerUpdateParams = RequestBody<"updateCustomer">;
export type CustomerListParams = ListParams<"listCustomers">;

export type DepositAddress = Schemas["DepositAddress"];
export type DepositAddressList = Schemas["DepositAddressList"];
export type DepositAddressCreateParams = RequestBody<"createDepositAddress">;
export type DepositAddressUpdateParams = RequestBody<"updateDepositAddress">;
export type DepositAddressListParams = ListParams<"listDepositAddresses">;
export type Deposit = Schemas["Deposit"];
export type DepositList = Schemas["DepositList"];
export type DepositListParams = ListParams<"listDeposits">;
export type DepositRescanParams = RequestBody<"rescanDeposits">;
export type DepositRescan = Schemas["DepositRescan"];
export type SandboxSimulateDepositParams = RequestBody<"simulateDeposit">;
export type SandboxDepositTransfer = Schemas["SandboxDepositTransfer"];

export type WebhookEndpoint = Schemas["WebhookEndpoint"];
export type WebhookEndpointWithSecret = Schemas["WebhookEndpointWithSecret"];
export type WebhookEndpointList = Schemas["WebhookEndpointList"];
export type DeletedWebhookEndpoint = Schemas["DeletedWebhookEndpoint"];
export type WebhookEndpointCreateParams = RequestBody<"createWebhookEndpoint">;
export type WebhookEndpointUpdateParams = RequestBody<"updateWebhookEndpoint">;
export type WebhookEndpointListParams = ListParams<"listWebhookEndpoints">;
export type WebhookAttempt = Schemas["WebhookAttempt"];
export type WebhookAttemptList = Schemas["WebhookAttemptList"];
export type AttemptListParams = ListParams<"listEventAttempts">;
export type WebhookResendParams = RequestBody<"resendFailedWebhookDeliveries">;
export type WebhookResend = Schemas["WebhookResend"];

export type EventType = Schemas["Event"]["type"];
/**
 * An event, discriminated by `type`: after `if (event.type === "payment.confirmed")`, `event.data.object`
 * is a `Payment` (a `Deposit` for `deposit.*`, a `Payout` for `payout.*`, a `Refund` for `refund.*`). The document
 * only says "one of them".
 */
export type Event = {
  [T in EventType]: Omit<Schemas["Event"], "type" | "data"> & {
    type: T;
    data: {
      object: T extends `payout.${string}`
        ? Payout
        : T extends `refund.${string}`
          ? Refund
          : T extends `deposit.${string}`
            ? Deposit
            : Payment;
    };
  };
}[EventType];
export type EventList = Omit<Schemas["EventList"], "data"> & { data: Event[] };
export type EventListParams = ListParams<"listEvents">;

export type SandboxChainList = Schemas["SandboxChainList"];
export type SandboxChain = SandboxChainList["data"][number];
export type SandboxFaucetParams = RequestBody<"sandboxFaucet">;
export type SandboxFaucetTransfer = Schemas["SandboxFaucetTransfer"];
export type SandboxSimulateParams = RequestBody<"simulatePayment">;
export type SandboxTransfer = Schemas["SandboxTransfer"];
export type SandboxMineParams = RequestBody<"mineSandboxChain">;
export type SandboxChainMined = Schemas["SandboxChainMined"];
export type SandboxReorgParams = RequestBody<"reorgSandboxChain">;
export type SandboxChainReorganized = Schemas["SandboxChainReorganized"];
export type SandboxDropParams = RequestBody<"dropSandboxTransaction">;
export type SandboxDrop = Schemas["SandboxDrop"];
export type SandboxCongestParams = RequestBody<"congestSandboxChain">;
export type SandboxChainCongested = Schemas["SandboxChainCongested"];
export type SandboxFreezeParams = RequestBody<"freezeSandboxAddress">;
export type SandboxFreeze = Schemas["SandboxFreeze"];
