import type { Chain } from "@/lib/chains/chains";
import type { Metadata } from "@/lib/api/metadata";
import type { Mode } from "@/lib/keys/api-key-format";
import type { PayoutStatus } from "./schemas";

export interface PayoutRow {
  id: string;
  merchantId: string;
  mode: Mode;
  status: PayoutStatus;
  chain: Chain;
  toAddress: string;
  amountUnits: bigint;
  description: string | null;
  metadata: Metadata;
  txHash: string | null;
  confirmations: number | null;
  createdAt: Date;
  confirmedAt: Date | null;
}

export const PAYOUT_COLUMNS =
  "id, merchant_id, mode, status, chain, to_address, amount_units, description, metadata, tx_hash, confirmations, created_at, confirmed_at";

export function toPayoutRow(r: Record<string, unknown>): PayoutRow {
  return {
    id: r.id as string,
    merchantId: r.merchant_id as string,
    mode: r.mode as Mode,
    status: r.status as PayoutStatus,
    chain: r.chain as Chain,
    toAddress: r.to_address as string,
    amountUnits: BigInt(r.amount_units as string),
    description: (r.description as string | null) ?? null,
    metadata: (r.metadata as Metadata) ?? {},
    txHash: (r.tx_hash as string | null) ?? null,
    confirmations: (r.confirmations as number | null) ?? null,
    createdAt: r.created_at as Date,
    confirmedAt: (r.confirmed_at as Date | null) ?? null,
  };
}
