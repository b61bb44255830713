import { watchKey } from "@/lib/chains/connect/watch-key";
import type { Db } from "@/lib/platform/db/client";
import { query } from "@/lib/platform/db/query";
import { allocateDepositAddress, countFreeAddresses } from "@/lib/chains/wallets/deposit-address-pool";
import { CHAINS, CHAIN_FAMILY, type ChainFamily } from "@/lib/chains/chains";
import type { Mode } from "@/lib/kernel/mode";
import { PAYMENT_COLUMNS, toPaymentRow } from "./payment-row";
import { PaymentBatch } from "./update-payment";

/**
 * Payments created while their (mode, family) address pool was empty wait in `intent_created` with their chain
 * and no address. This gives each (oldest first, as far as the pool goes) its address and makes it payable
 * (intent_created → awaiting_payment, recording payment.awaiting_payment), in the caller's transaction.
 * One past its expires_at is made payable too: its chain's watcher then expires it, as any other.
 */
export async function allocateWaitingPayments(tx: Db, mode: Mode, family: ChainFamily, limit = 500): Promise<number> {
  // As many as the pool has free addresses: a claim finding the pool empty asks for another refill, and a
  // worker that cannot derive this pool would otherwise be asked again and again by its own job.
  const free = await countFreeAddresses(tx, mode, family, limit);
  if (free === 0) return 0;
  const rows = await query(
    tx,
    `select ${PAYMENT_COLUMNS} from payments
     where mode = $1 and chain = any($2::text[]) and status = 'intent_created'
     order by created_at, id limit $3 for update skip locked`,
    [mode, CHAINS.filter((chain) => CHAIN_FAMILY[chain] === family), free],
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
