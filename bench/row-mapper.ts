// `npm run bench:rows`: ns per row to map 100k raw payments rows (as pg returns them: int8 as strings,
// timestamptz as Dates, jsonb parsed) with the former hand-written mapper vs the one derived from the
// Drizzle table. CPU only, no database. Env: BENCH_ROWS (default 100000), BENCH_ROUNDS (default 7).
import { type Column, getTableColumns } from "drizzle-orm";
import { payments } from "@/db/schema/payments";
import { toPaymentRow } from "@/lib/money-in/payments/payment-row";

const ROWS = Number(process.env.BENCH_ROWS || 100_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS || 7);

/** The hand-written mapper this replaced (lib/money-in/payments/payment-row.ts before the derivation), verbatim. */
function handWrittenToPaymentRow(r: Record<string, unknown>) {
  return {
    id: r.id as string,
    merchantId: r.merchant_id as string,
    mode: r.mode as string,
    status: r.status as string,
    chain: (r.chain as string | null) ?? null,
    amountUnits: BigInt(r.amount_units as string),
    depositAddress: (r.deposit_address as string | null) ?? null,
    description: (r.description as string | null) ?? null,
    metadata: (r.metadata as Record<string, unknown>) ?? {},
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

/** The derivation as a plain loop of keyed stores (what rowMapper compiles away), for comparison. */
const columns = Object.entries(getTableColumns(payments) as Record<string, Column>).map(
  ([key, c]) =>
    [c.name, key, c.columnType.startsWith("PgBigInt") ? (v: unknown) => c.mapFromDriverValue(v) : null] as const,
);
function loopToPaymentRow(raw: Record<string, unknown>) {
  const row: Record<string, unknown> = {};
  for (const [name, key, convert] of columns) {
    const value = raw[name];
    row[key] = value === null || convert === null ? value : convert(value);
  }
  return row as { id: string };
}

function rawRow(i: number): Record<string, unknown> {
  const confirmed = i % 2 === 0;
  return {
    id: `pay_${i.toString(36).padStart(12, "0")}`,
    merchant_id: "mer_0000000001",
    mode: "sandbox",
    status: confirmed ? "confirmed" : "awaiting_payment",
    chain: "tron",
    amount_units: String(1_000_000 + i),
    deposit_address: `T${i.toString(36).padStart(33, "x")}`,
    derivation_index: String(i),
    description: confirmed ? "Order" : null,
    metadata: { order: `A-${i}` },
    watch_key: `t${i}`,
    amount_received_units: confirmed ? String(1_000_000 + i) : "0",
    tx_hash: confirmed ? `0x${i.toString(16).padStart(64, "0")}` : null,
    tx_block_number: confirmed ? String(5_000_000 + i) : null,
    confirmations: confirmed ? 20 : 0,
    payment_link_id: null,
    created_at: new Date(1_760_000_000_000 + i),
    expires_at: new Date(1_760_001_800_000 + i),
    confirmed_at: confirmed ? new Date(1_760_000_600_000 + i) : null,
    closed_at: confirmed ? new Date(1_760_000_600_000 + i) : null,
    updated_at: new Date(1_760_000_600_000 + i),
  };
}

const rows = Array.from({ length: ROWS }, (_, i) => rawRow(i));
let sink = 0;

/** Best of ROUNDS passes over all rows (the first passes warm the JIT), in ns per row. */
function measure(map: (r: Record<string, unknown>) => { id: string }): number {
  let best = Number.POSITIVE_INFINITY;
  for (let round = 0; round < ROUNDS; round++) {
    const start = process.hrtime.bigint();
    for (let i = 0; i < rows.length; i++) sink += map(rows[i]!).id.length;
    best = Math.min(best, Number(process.hrtime.bigint() - start) / rows.length);
  }
  return best;
}

// Alternate the two so neither always runs on a warmer (or more fragmented) heap.
const handWritten: number[] = [];
const derived: number[] = [];
const loop: number[] = [];
for (let pass = 0; pass < 3; pass++) {
  handWritten.push(measure(handWrittenToPaymentRow));
  derived.push(measure(toPaymentRow));
  loop.push(measure(loopToPaymentRow));
}
const fmt = (ns: number[]) => `${Math.min(...ns).toFixed(0)} ns/row`;
console.log(`payments rows: ${ROWS.toLocaleString("en")} × ${ROUNDS} rounds × 3 passes (best)`);
console.log(`  hand-written mapper (18 columns): ${fmt(handWritten)}`);
console.log(`  derived rowMapper   (21 columns): ${fmt(derived)}`);
console.log(`  plain loop, not used (21 columns): ${fmt(loop)}`);
if (sink === 0) console.log("(unreachable: keeps the results alive)");
