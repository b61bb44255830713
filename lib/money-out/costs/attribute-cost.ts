import { CHAIN_FAMILY } from "@/lib/chains/chains";
import { minOf } from "@/lib/kernel/bigint";
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
 * by amount (on a customer's deposit address, by the deposits it collected: depositsAt); a batched sweep first by its
 * members' amounts; anything else (a contract deployment) is the installation's. The shares sum to the fee exactly.
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
      shares.push(...spread(perPart[i]!, await subjectsAtAddress(tx, row, part.address, part.weight)));
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
  if (FOR_AN_ADDRESS.has(row.purpose) && row.causeId)
    return subjectsAtAddress(tx, row, row.causeId, row.purpose === "sweep" ? row.rawAmount : null);
  return INSTALLATION;
}

/**
 * Who bears what collecting an address cost: its deposits on a customer's deposit address, else its payments.
 * `collected`: the raw amount the intent moved off the address (a sweep's; a batch member's), null for what only
 * prepared a sweep (top-up, energy).
 */
async function subjectsAtAddress(
  tx: Db,
  row: OutboundRow,
  address: string,
  collected: bigint | null,
): Promise<Share[]> {
  return (await depositsAt(tx, row, address, collected)) ?? paymentsAt(tx, row, address);
}

/**
 * On a customer's deposit address (null when it is not one): the deposits this intent collected, by amount. A
 * deposit address is swept first in, first out: its deposits (dust included) in chain order, laid end to end, and
 * its confirmed sweeps before this one took the first `swept` units, so a sweep of `collected` units took the range
 * after them, and each deposit bears the part of the fee its overlap with that range is; what prepared a sweep is
 * borne by every deposit not swept yet. Nothing in range (a sweep of funds the books do not show): the newest
 * deposit, which the sweep was for.
 */
async function depositsAt(
  tx: Db,
  row: OutboundRow,
  address: string,
  collected: bigint | null,
): Promise<Share[] | null> {
  const family = CHAIN_FAMILY[row.chain];
  const deposits = await query<{ id: string; merchant_id: string; raw: string }>(
    tx,
    `select d.id, d.merchant_id, d.raw_amount::text as raw
       from deposit_addresses a join deposits d on d.deposit_address_id = a.id
      where a.mode = $1 and a.family = $4 and a.address = $3 and d.chain = $2 and d.status in ('credited','ignored')
      order by d.block_number, d.log_index, d.id`,
    [row.mode, row.chain, address, family],
  );
  if (!deposits.length) {
    const [isAddress] = await query(
      tx,
      "select 1 from deposit_addresses where mode = $1 and family = $2 and address = $3",
      [row.mode, family, address],
    );
    return isAddress ? INSTALLATION : null;
  }
  const [earlier] = await query<{ swept: string }>(
    tx,
    `select coalesce(sum(raw), 0)::text as swept from (
       select o.raw_amount as raw from outbound_transactions o
        where o.mode = $1 and o.chain = $2 and o.purpose = 'sweep' and o.from_address = $3 and o.status = 'confirmed'
          and o.id <> $4
       union all
       select m.raw_amount from sweep_batch_members m join outbound_transactions o on o.id = m.outbound_id
        where m.mode = $1 and m.chain = $2 and m.address = $3 and o.status = 'confirmed' and o.id <> $4) s`,
    [row.mode, row.chain, address, row.id],
  );
  const from = BigInt(earlier!.swept);
  const to = collected === null ? null : from + collected;
  const shares: Share[] = [];
  let at = 0n;
  for (const d of deposits) {
    const start = at;
    at += BigInt(d.raw);
    const overlap = minOf(at, to ?? at) - (start > from ? start : from);
    if (overlap > 0n)
      shares.push({ subjectType: "deposit", subjectId: d.id, merchantId: d.merchant_id, weight: overlap });
  }
  if (shares.length) return shares;
  const newest = deposits.at(-1)!;
  return [{ subjectType: "deposit", subjectId: newest.id, merchantId: newest.merchant_id, weight: 1n }];
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
