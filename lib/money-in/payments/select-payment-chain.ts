import { DomainError } from "@/lib/kernel/domain-error";
import { requireEnabledChain } from "@/lib/chains/require-enabled-chain";
import { CHAIN_FAMILY, type Chain } from "@/lib/chains/chains";
import { inTransaction, type Db } from "@/lib/platform/db/client";
import { query } from "@/lib/platform/db/query";
import type { Mode } from "@/lib/kernel/mode";
import { enqueueJob } from "@/lib/platform/jobs/enqueue-job";
import { allocateDepositAddress, refillJobKey } from "@/lib/chains/wallets/deposit-address-pool";
import { watchKey } from "@/lib/chains/connect/watch-key";
import { PAYMENT_COLUMNS, toPaymentRow, type PaymentRow } from "./payment-row";

/**
 * The payer's choice of network for a chain-agnostic payment (called by the hosted checkout). Sets the
 * chain and allocates the deposit address once: the row is locked, so of two concurrent choices one
 * wins and the other gets the winner's result if it chose the same chain, or a clear error otherwise.
 */
export async function selectPaymentChain(db: Db, paymentId: string, chain: Chain): Promise<PaymentRow> {
  try {
    return await choose(db, paymentId, chain);
  } catch (err) {
    if (err instanceof NoAddressReady) {
      const pool = { mode: err.mode, family: CHAIN_FAMILY[chain] };
      await enqueueJob(db, "refill_deposit_address_pool", pool, { jobKey: refillJobKey(pool.mode, pool.family) });
    }
    throw err;
  }
}

class NoAddressReady extends DomainError {
  constructor(
    chain: Chain,
    readonly mode: Mode,
  ) {
    super("chain_disabled", `No '${chain}' deposit address is ready right now; try again in a minute.`, {
      param: "chain",
    });
  }
}

async function choose(db: Db, paymentId: string, chain: Chain): Promise<PaymentRow> {
  return inTransaction(db, async (tx) => {
    const [locked] = await query(tx, `select ${PAYMENT_COLUMNS} from payments where id = $1 for update`, [paymentId]);
    if (!locked) throw new DomainError("not_found", `No such payment: '${paymentId}'`, { param: "id" });
    const payment = toPaymentRow(locked);
    if (payment.chain) {
      if (payment.chain === chain) return payment;
      throw new DomainError(
        "invalid_request_error",
        `The network of this payment is already set to '${payment.chain}' and cannot be changed.`,
        { param: "chain" },
      );
    }
    if (payment.status !== "awaiting_payment" || payment.expiresAt.getTime() <= Date.now()) {
      throw new DomainError("invalid_request_error", "This payment can no longer be paid.", { param: "id" });
    }
    requireEnabledChain(payment.mode, chain);
    const deposit = await allocateDepositAddress(tx, payment.mode, chain, paymentId);
    // An empty pool: the payment stays as it was, so the payer may choose again once the refill (enqueued
    // by the caller, outside this rolled-back transaction) has run.
    if (!deposit) throw new NoAddressReady(chain, payment.mode);
    const [row] = await query(
      tx,
      `update payments set chain = $2, deposit_address = $3, derivation_index = $4, watch_key = $5, updated_at = now()
       where id = $1 returning ${PAYMENT_COLUMNS}`,
      [paymentId, chain, deposit.address, deposit.index, watchKey(chain, deposit.address)],
    );
    return toPaymentRow(row!);
  });
}
