import { requireEnabledChain } from "@/lib/chains/require-enabled-chain";
import { requireCustomer } from "@/lib/money-in/customers/manage-customers";
import { newId } from "@/lib/kernel/random";
import type { Db } from "@/lib/platform/db/client";
import { query } from "@/lib/platform/db/query";
import type { Mode } from "@/lib/kernel/mode";
import { config } from "@/lib/platform/config/env";
import { recordEvent } from "@/lib/notify/events/record-event";
import { allocateDepositAddress } from "@/lib/chains/wallets/deposit-address-pool";
import { watchKey } from "@/lib/chains/connect/watch-key";
import { scheduleExpiry } from "./expire-payment";
import { serializePayment } from "./serialize-payment";
import { PAYMENT_LIFECYCLE } from "./payment-lifecycle";
import { PAYMENT_COLUMNS, toPaymentRow, type PaymentRow } from "./payment-row";
import { DEFAULT_EXPIRES_IN, type CreatePaymentInput } from "./schemas";

/** The intent is normally payable as it is stored: its row is born in `awaiting_payment`. */
const CREATED = PAYMENT_LIFECYCLE.transition("intent_created", "created");

/**
 * Creates a payment intent in `awaiting_payment` and its `payment.awaiting_payment` event (and, for one with
 * no chain yet, the job that expires it at `expires_at`), in the caller's transaction. With a chain, its
 * single-use deposit address is allocated now; without one, chain and address wait for the payer's choice
 * (selectPaymentChain). The exception: a payment finding its address pool empty is stored in `intent_created`,
 * with no event, until the pool's refill job gives it an address (allocateWaitingPayments).
 */
export async function createPayment(
  db: Db,
  owner: { merchantId: string; mode: Mode },
  input: CreatePaymentInput & { paymentLinkId?: string },
): Promise<PaymentRow> {
  if (input.chain) requireEnabledChain(owner.mode, input.chain);
  if (input.customer) await requireCustomer(db, owner, input.customer);
  const id = newId("pay_");
  const deposit = input.chain ? await allocateDepositAddress(db, owner.mode, input.chain, id) : null;
  const waitsForAddress = Boolean(input.chain) && !deposit;
  const createdAt = new Date();
  const expiresAt = new Date(createdAt.getTime() + (input.expires_in ?? DEFAULT_EXPIRES_IN) * 1000);
  const [row] = await query(
    db,
    `insert into payments (id, merchant_id, mode, status, chain, amount_units, deposit_address, derivation_index,
       description, metadata, payment_link_id, created_at, expires_at, watch_key, customer_id)
     values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15) returning ${PAYMENT_COLUMNS}`,
    [
      id,
      owner.merchantId,
      owner.mode,
      waitsForAddress ? CREATED.from : CREATED.to,
      input.chain ?? null,
      input.amount.toString(),
      deposit?.address ?? null,
      deposit?.index ?? null,
      input.description ?? null,
      JSON.stringify(input.metadata ?? {}),
      input.paymentLinkId ?? null,
      createdAt,
      expiresAt,
      input.chain && deposit ? watchKey(input.chain, deposit.address) : null,
      input.customer ?? null,
    ],
  );
  const payment = toPaymentRow(row!);
  if (waitsForAddress) return payment;
  await recordEvent(db, {
    merchantId: owner.merchantId,
    mode: owner.mode,
    type: CREATED.event,
    object: serializePayment(payment, config().publicBaseUrl, []),
  });
  // With a chain, its watcher expires the payment on chain time (the overdue sweep covers a stalled
  // watcher); without one, nothing watches it, so a job expires it at expires_at.
  if (!payment.chain) await scheduleExpiry(db, payment);
  return payment;
}
