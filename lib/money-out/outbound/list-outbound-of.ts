import type { Db } from "@/lib/platform/db/client";
import { query } from "@/lib/platform/db/query";
import type { Mode } from "@/lib/kernel/mode";
import type { OutboundPurpose } from "./outbound-types";

export interface OutboundSummary {
  id: string;
  status: string;
  txHash: string | null;
  confirmations: number | null;
  /** The network fee paid, in the chain's native base units; null until known. */
  feeNative: bigint | null;
  createdAt: Date;
  confirmedAt: Date | null;
}

/**
 * The transactions sent for one cause (a payout's transfer, a sweep), with the shared ones it was part of
 * (`alsoIds`: a payout's batches), oldest first.
 */
export async function listOutboundOf(
  db: Db,
  mode: Mode,
  purpose: OutboundPurpose,
  causeId: string,
  alsoIds: string[] = [],
): Promise<OutboundSummary[]> {
  const rows = await query<{
    id: string;
    status: string;
    tx_hash: string | null;
    confirmations: number | null;
    fee_native: string | null;
    created_at: Date;
    confirmed_at: Date | null;
  }>(
    db,
    `select id, status, tx_hash, confirmations, fee_native::text, created_at, confirmed_at from outbound_transactions
      where ((cause_id = $1 and purpose = $2) or id = any($4)) and mode = $3 order by created_at`,
    [causeId, purpose, mode, alsoIds],
  );
  return rows.map((r) => ({
    id: r.id,
    status: r.status,
    txHash: r.tx_hash,
    confirmations: r.confirmations,
    feeNative: r.fee_native === null ? null : BigInt(r.fee_native),
    createdAt: r.created_at,
    confirmedAt: r.confirmed_at,
  }));
}
