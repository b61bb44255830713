import type { Chain } from "@/lib/chains/chains";
import type { Db } from "@/lib/platform/db/client";
import { query } from "@/lib/platform/db/query";
import type { Mode } from "@/lib/kernel/mode";

export interface PaymentDeposit {
  id: string;
  chain: Chain;
  kind: string;
  status: string;
  txHash: string;
  block: number;
  from: string | null;
  /** USDT base units (6 decimals), whatever the chain's token decimals. */
  amountUnits: bigint;
  blockTime: Date;
}

/** The deposits recorded for one payment of this merchant and mode, in chain order. */
export async function listPaymentDeposits(
  db: Db,
  owner: { merchantId: string; mode: Mode },
  paymentId: string,
): Promise<PaymentDeposit[]> {
  const rows = await query<{
    id: string;
    chain: Chain;
    kind: string;
    status: string;
    tx_hash: string;
    block_number: string | number;
    from_address: string | null;
    amount_units: string | bigint;
    block_time: Date;
  }>(
    db,
    `select id, chain, kind, status, tx_hash, block_number, from_address, amount_units, block_time
       from deposits where payment_id = $1 and merchant_id = $2 and mode = $3 order by block_number, log_index`,
    [paymentId, owner.merchantId, owner.mode],
  );
  return rows.map((d) => ({
    id: d.id,
    chain: d.chain,
    kind: d.kind,
    status: d.status,
    txHash: d.tx_hash,
    block: Number(d.block_number),
    from: d.from_address ?? null,
    amountUnits: BigInt(d.amount_units),
    blockTime: d.block_time,
  }));
}
