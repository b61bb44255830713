import type { Operation } from "../operation";
import { BALANCE_TRANSACTIONS } from "./balance-transactions";
import { BALANCES } from "./balances";
import { CHAINS_OPERATIONS } from "./chains";
import { CUSTOMERS } from "./customers";
import { DEPOSIT_ADDRESSES, DEPOSITS } from "./deposit-addresses";
import { EVENTS } from "./events";
import { EXPORT_OPERATIONS } from "./exports";
import { PAYMENT_LINKS } from "./payment-links";
import { PAYMENTS } from "./payments";
import { PAYOUTS } from "./payouts";
import { REFUNDS } from "./refunds";
import { REPORTS } from "./reports";
import { SANDBOX } from "./sandbox";
import { SEARCH } from "./search";
import { WEBHOOKS } from "./webhooks";

/** Every /v1 operation, in the order the reference lists them. */
export const OPERATIONS: Operation[] = [
  PAYMENTS,
  PAYMENT_LINKS,
  BALANCES,
  BALANCE_TRANSACTIONS,
  PAYOUTS,
  REFUNDS,
  CUSTOMERS,
  DEPOSIT_ADDRESSES,
  DEPOSITS,
  REPORTS,
  SEARCH,
  EXPORT_OPERATIONS,
  WEBHOOKS,
  EVENTS,
  CHAINS_OPERATIONS,
  SANDBOX,
].flatMap((group) => Object.values(group) as Operation[]);
