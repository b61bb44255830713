import { watchKey } from "@/lib/chains/connect/watch-key";
import type { Db } from "@/lib/platform/db/client";
import { query } from "@/lib/platform/db/query";
import { allocateDepositAddress } from "@/lib/chains/wallets/allocate-deposit-address";
import { PAYMENT_COLUMNS, toPaymentRow } from "./payment-row";
import { PaymentBatch } from "./update-payment";

/**
 * Payments created while the live Solana address pool was empty wait in `intent_created` with their chain
 * and no address. This gives each (oldest first, as far as the pool goes) its address and makes it payable
 * (intent_created → awaiting_payment, recording payment.awaiting_payment), in the caller's transaction.
 * One past its expires_at is made payable too: its chain's watcher then expires it, as any other.
 */
export async function allocateWaitingPayments(tx: Db, limit = 500): Promise<number> {
  const rows = await query(
    tx,
    `select ${PAYMENT_COLUMNS} from payments
     where mode = 'live' and chain = 'solana' and status = 'intent_created'
     order by created_at, id limit $1 for update skip locked`,
    [limit],
  );
  const batch = new PaymentBatch();
  let allocated = 0;
  for (const payment of rows.map(toPaymentRow)) {
    const deposit = await allocateDepositAddress(tx, payment.mode, payment.chain!, payment.id);
    if (!deposit) break;
    const key = watchKey(payment.chain!, deposit.address);
    await query(tx, "update payments set deposit_address = $2, derivation_index = $3, watch_key = $4 where id = $1", [
      payment.id,
      deposit.address,
      deposit.index,
      key,
    ]);
    batch.transition(
      { ...payment, depositAddress: deposit.address, derivationIndex: deposit.index, watchKey: key },
      "created",
    );
    allocated++;
  }
  await batch.flush(tx);
  return allocated;
}
