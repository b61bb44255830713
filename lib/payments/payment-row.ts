import type { Chain } from "@/lib/chains/chains";
import type { Mode } from "@/lib/keys/api-key-format";

export type PaymentStatus =
  | "intent_created"
  | "awaiting_payment"
  | "pending"
  | "confirming"
  | "confirmed"
  | "expired"
  | "failed";

export interface PaymentRow {
  id: string;
  merchantId: string;
  mode: Mode;
  status: PaymentStatus;
  chain: Chain | null;
  amountUnits: bigint;
  depositAddress: string | null;
  description: string | null;
  metadata: Record<string, string | number | boolean>;
  amountReceivedUnits: bigint;
  txHash: string | null;
  txBlockNumber: number | null;
  confirmations: number;
  paymentLinkId: string | null;
  createdAt: Date;
  expiresAt: Date;
  confirmedAt: Date | null;
  closedAt: Date | null;
}

export const PAYMENT_COLUMNS =
  "id, merchant_id, mode, status, chain, amount_units, deposit_address, description, metadata, amount_received_units, tx_hash, tx_block_number, confirmations, payment_link_id, created_at, expires_at, confirmed_at, closed_at";

export function toPaymentRow(r: Record<string, unknown>): PaymentRow {
  return {
    id: r.id as string,
    merchantId: r.merchant_id as string,
    mode: r.mode as Mode,
    status: r.status as PaymentStatus,
    chain: (r.chain as Chain | null) ?? null,
    amountUnits: BigInt(r.amount_units as string),
    depositAddress: (r.deposit_address as string | null) ?? null,
    description: (r.description as string | null) ?? null,
    metadata: (r.metadata as PaymentRow["metadata"]) ?? {},
    amountReceivedUnits: BigInt(r.amount_received_units as string),
    txHash: (r.tx_hash as string | null) ?? null,
    txBlockNumber: r.tx_block_number === null || r.tx_block_number === undefined ? null : Number(r.tx_block_number),
    confirmations: r.confirmations as number,
    paymentLinkId: (r.payment_link_id as string | null) ?? null,
    createdAt: r.created_at as Date,
    expiresAt: r.expires_at as Date,
    confirmedAt: (r.confirmed_at as Date | null) ?? null,
    closedAt: (r.closed_at as Date | null) ?? null,
  };
}
