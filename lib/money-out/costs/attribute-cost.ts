import type { Db } from "@/lib/platform/db/client";
import { execute, query } from "@/lib/platform/db/query";
import type { OutboundRow } from "../outbound/outbound-row";
import type { CostSubject } from "./cost-types";
import { splitExactly } from "./split-exactly";

interface Share {
  subjectType: CostSubject;
  subjectId: string | null;
  merchantId: string | null;
  weight: bigint;
}

const INSTALLATION: Share[] = [{ subjectType: "installation", subjectId: null, merchantId: null, weight: 1n }];

/** Sweeping an address, and what prepares it (its top-up, the energy lent and reclaimed), costs its payments. */
const FOR_AN_ADDRESS = new Set(["sweep", "gas_topup", "energy_delegate", "energy_reclaim", "account_close"]);

/**
 * Attributes a confirmed or reverted intent's fee (and Solana rent it paid), in the transaction that ends it
 * (transitionOutbound): a payout or refund bears its own; a payout batch's members share it equally (each is one
 * transfer in it); a sweep, or what prepared it, is shared by the payments whose credited deposits sit on the address,
 * by amount; a batched sweep first by its members' amounts; anything else (a contract deployment) is the
 * installation's. The shares sum to the fee exactly.
 */
export async function attributeOutboundCost(tx: Db, row: OutboundRow): Promise<void> {
  // Solana: the rent of a token account it created for someone else (a payout's recipient) is gone for good too.
  const fee = (row.feeNative ?? 0n) + (row.rentPaidNative ?? 0n);
  if (fee <= 0n) return;
  const parts =
    row.purpose === "sweep_batch"
      ? (row.options.batch?.members ?? []).map((m) => ({ address: m.address, weight: BigInt(m.raw) }))
      : [];
  const perPart = splitExactly(
    fee,
    parts.map((p) => p.weight),
  );
  const shares: { share: Share; fee: bigint }[] = [];
  if (parts.length)
    for (const [i, part] of parts.entries())
      shares.push(...spread(perPart[i]!, await paymentsAt(tx, row, part.address)));
  else shares.push(...spread(fee, await subjectsOf(tx, row)));
  for (const { share, fee: part } of shares)
    if (part > 0n)
      await execute(
        tx,
        `insert into outbound_costs
           (outbound_id, mode, chain, purpose, subject_type, subject_id, merchant_id, fee_native)
         values ($1, $2, $3, $4, $5, $6, $7, $8)`,
        [
          row.id,
          row.mode,
          row.chain,
          row.purpose,
          share.subjectType,
          share.subjectId,
          share.merchantId,
          part.toString(),
        ],
      );
}

function spread(fee: bigint, subjects: Share[]) {
  const parts = splitExactly(
    fee,
    subjects.map((s) => s.weight),
  );
  return subjects.map((share, i) => ({ share, fee: parts[i]! }));
}

async function subjectsOf(tx: Db, row: OutboundRow): Promise<Share[]> {
  const members = row.options.payoutBatch?.members.map((m) => m.payoutId) ?? [];
  if (row.purpose === "payout_batch" && members.length) {
    const own = await query<{ id: string; merchant_id: string }>(
      tx,
      "select id, merchant_id from payouts where id = any($1) order by id",
      [members],
    );
    return own.map((p) => ({ subjectType: "payout", subjectId: p.id, merchantId: p.merchant_id, weight: 1n }));
  }
  if ((row.purpose === "payout" || row.purpose === "refund") && row.causeId) {
    const table = row.purpose === "payout" ? "payouts" : "refunds";
    const [own] = await query<{ merchant_id: string }>(tx, `select merchant_id from ${table} where id = $1`, [
      row.causeId,
    ]);
    if (own) return [{ subjectType: row.purpose, subjectId: row.causeId, merchantId: own.merchant_id, weight: 1n }];
  }
  if (FOR_AN_ADDRESS.has(row.purpose) && row.causeId) return paymentsAt(tx, row, row.causeId);
  return INSTALLATION;
}

/** The payments with credited deposits on a deposit address, weighted by what they received there. */
async function paymentsAt(tx: Db, row: OutboundRow, address: string): Promise<Share[]> {
  const rows = await query<{ id: string; merchant_id: string; raw: string }>(
    tx,
    `select p.id, p.merchant_id, sum(d.raw_amount)::text as raw
       from deposits d join payments p on p.id = d.payment_id
      where d.mode = $1 and d.chain = $2 and p.deposit_address = $3 and d.status = 'credited'
      group by p.id, p.merchant_id order by p.id`,
    [row.mode, row.chain, address],
  );
  if (!rows.length) return INSTALLATION;
  return rows.map((r) => ({
    subjectType: "payment",
    subjectId: r.id,
    merchantId: r.merchant_id,
    weight: BigInt(r.raw),
  }));
}
