import { DomainError } from "@/lib/kernel/domain-error";
import { explorerTxUrl } from "@/lib/chains/explorer-urls";
import type { Chain } from "@/lib/chains/chains";
import type { Db } from "@/lib/platform/db/client";
import { query } from "@/lib/platform/db/query";
import type { Mode } from "@/lib/kernel/mode";
import { formatAmount } from "@/lib/kernel/amount";
import { getPayment } from "@/lib/money-in/payments/get-payment";
import { serializePayment } from "@/lib/money-in/payments/serialize-payment";
import { listEventDeliveries } from "./event-deliveries";

type Owner = { merchantId: string; mode: Mode };

/** null when the id is not a payment of this merchant in this mode (the page's 404). */
export async function findOwnPayment(db: Db, owner: Owner, id: string) {
  try {
    return await getPayment(db, owner, id);
  } catch (err) {
    if (err instanceof DomainError && err.type === "not_found") return null;
    throw err;
  }
}

/**
 * A payment's detail page: the payment object (as GET /v1/payments/:id), its timeline (every event it
 * emitted: one per status change), its deposits with their transactions (explorer links in live mode only),
 * and the webhook deliveries of its events. null → 404.
 */
export async function loadPaymentDetail(db: Db, owner: Owner, id: string, baseUrl: string) {
  const row = await findOwnPayment(db, owner, id);
  if (!row) return null;
  const [events, deposits] = await Promise.all([
    query<{ id: string; type: string; created_at: Date }>(
      db,
      "select id, type, created_at from events where object_id = $1 and merchant_id = $2 and mode = $3 order by created_at, id",
      [row.id, owner.merchantId, owner.mode],
    ),
    query(
      db,
      `select id, chain, kind, status, tx_hash, block_number, from_address, amount_units, block_time
       from deposits where payment_id = $1 and merchant_id = $2 and mode = $3 order by block_number, log_index`,
      [row.id, owner.merchantId, owner.mode],
    ),
  ]);
  return {
    payment: serializePayment(row, baseUrl),
    timeline: [
      { id: null, type: "created", at: row.createdAt.toISOString() },
      ...events.map((e) => ({ id: e.id, type: e.type, at: e.created_at.toISOString() })),
    ],
    deposits: deposits.map((d) => ({
      id: d.id as string,
      chain: d.chain as Chain,
      kind: d.kind as string,
      status: d.status as string,
      tx_hash: d.tx_hash as string,
      block: Number(d.block_number),
      from: (d.from_address as string | null) ?? null,
      amount: formatAmount(BigInt(d.amount_units as string | bigint)),
      at: (d.block_time as Date).toISOString(),
      explorer_url: owner.mode === "live" ? explorerTxUrl(d.chain as Chain, d.tx_hash as string) : null,
    })),
    deliveries: await listEventDeliveries(
      db,
      owner,
      events.map((e) => e.id),
    ),
  };
}
