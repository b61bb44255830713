import type { Db } from "@/lib/platform/db/client";
import { query } from "@/lib/platform/db/query";

/** One transfer into a payment on its chain, as the payment object lists it. */
export interface PaymentTransfer {
  from: string | null;
  /** USDT base units (6 decimals). */
  amountUnits: bigint;
  txHash: string;
  /** `pending` until the chain's confirmation depth, then `credited`. */
  status: "pending" | "credited";
}

/**
 * The transfers into each payment on its chain, in chain order (not those a reorganization removed, nor
 * those to the same address on another network), in one statement however many payments.
 */
export async function readPaymentTransfers(db: Db, paymentIds: string[]): Promise<Map<string, PaymentTransfer[]>> {
  const byPayment = new Map<string, PaymentTransfer[]>(paymentIds.map((id) => [id, []]));
  if (paymentIds.length === 0) return byPayment;
  const rows = await query<{
    payment_id: string;
    from_address: string | null;
    amount_units: string;
    tx_hash: string;
    status: "pending" | "credited";
  }>(
    db,
    `select payment_id, from_address, amount_units::text, tx_hash, status from deposits
      where payment_id = any($1) and kind = 'payment' and status <> 'orphaned'
      order by payment_id, block_number, log_index`,
    [paymentIds],
  );
  for (const r of rows)
    byPayment.get(r.payment_id)?.push({
      from: r.from_address,
      amountUnits: BigInt(r.amount_units),
      txHash: r.tx_hash,
      status: r.status,
    });
  return byPayment;
}
