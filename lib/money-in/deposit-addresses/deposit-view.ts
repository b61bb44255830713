import type { Db } from "@/lib/platform/db/client";
import { query } from "@/lib/platform/db/query";

/** A deposit to a deposit address, with what its object shows of the address (serialize-deposit.ts). */
export interface DepositView {
  id: string;
  merchantId: string;
  status: "pending" | "credited" | "orphaned" | "ignored";
  amountUnits: bigint;
  chain: string;
  depositAddressId: string;
  address: string;
  customerId: string | null;
  fromAddress: string | null;
  txHash: string;
  logIndex: number;
  blockNumber: number;
  addressDisabled: boolean;
  createdAt: Date;
  creditedAt: Date | null;
}

/** The columns DepositView reads, over `deposits d join deposit_addresses a`. */
export const DEPOSIT_VIEW_COLUMNS = `d.id, d.merchant_id, d.status, d.amount_units::text, d.chain, d.deposit_address_id,
  a.address, a.customer_id, d.from_address, d.tx_hash, d.log_index, d.block_number::text, d.address_disabled,
  d.created_at, d.credited_at`;
export const DEPOSIT_VIEW_FROM = "deposits d join deposit_addresses a on a.id = d.deposit_address_id";

export function toDepositView(r: Record<string, unknown>): DepositView {
  return {
    id: r.id as string,
    merchantId: r.merchant_id as string,
    status: r.status as DepositView["status"],
    amountUnits: BigInt(r.amount_units as string),
    chain: r.chain as string,
    depositAddressId: r.deposit_address_id as string,
    address: r.address as string,
    customerId: r.customer_id as string | null,
    fromAddress: r.from_address as string | null,
    txHash: r.tx_hash as string,
    logIndex: r.log_index as number,
    blockNumber: Number(r.block_number),
    addressDisabled: r.address_disabled as boolean,
    createdAt: r.created_at as Date,
    creditedAt: r.credited_at as Date | null,
  };
}

/** These deposits (of kind `address`) as views, in the order of `ids`. */
export async function loadDepositViews(db: Db, ids: string[]): Promise<DepositView[]> {
  if (ids.length === 0) return [];
  const rows = await query(
    db,
    `select ${DEPOSIT_VIEW_COLUMNS} from ${DEPOSIT_VIEW_FROM} where d.id = any($1::text[])`,
    [ids],
  );
  const byId = new Map(rows.map((r) => [r.id as string, toDepositView(r)]));
  return ids.flatMap((id) => byId.get(id) ?? []);
}
