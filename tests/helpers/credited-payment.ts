import { randomBytes } from "node:crypto";
import { expect } from "vitest";
import { postJournal } from "@/lib/books/ledger/post-journal";
import { getDb, inTransaction } from "@/lib/platform/db/client";
import { execute } from "@/lib/platform/db/query";
import { api, type TestMerchant } from "./api";

export const PAYER = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";
const units = (amount: string) => BigInt(amount.replace(".", ""));

/**
 * A payment on eth that received `amounts` from `from` (one transfer each), credited as the watcher credits a
 * confirmed deposit: the deposits rows, the payment's received amount, and chain_deposits → available.
 */
export async function creditedPayment(m: TestMerchant, amounts: string[], from: string[] = amounts.map(() => PAYER)) {
  const created = await api("POST", "/v1/payments", { key: m.sandboxKey, body: { amount: "10.000000", chain: "eth" } });
  expect(created.status, created.text).toBe(200);
  const payment = created.json as { id: string; deposit_address: string };
  const total = amounts.reduce((sum, a) => sum + units(a), 0n);
  await inTransaction(getDb(), async (tx) => {
    for (const [i, amount] of amounts.entries())
      await execute(
        tx,
        `insert into deposits (id, payment_id, merchant_id, mode, chain, kind, status, tx_hash, log_index, position,
           block_number, block_hash, block_time, from_address, to_address, raw_amount, amount_units, credited_at)
         values ($1, $2, $3, 'sandbox', 'eth', 'payment', 'credited', $4, 0, 0, 1, $5, now(), $6, $7,
           $8::numeric, $8::bigint, now())`,
        [
          `dep_${randomBytes(8).toString("hex")}`,
          payment.id,
          m.id,
          `0x${randomBytes(32).toString("hex")}`,
          `0x${randomBytes(32).toString("hex")}`,
          from[i],
          payment.deposit_address,
          units(amount).toString(),
        ],
      );
    await execute(
      tx,
      "update payments set status = 'confirmed', amount_received_units = $2, confirmed_at = now() where id = $1",
      [payment.id, total.toString()],
    );
    await postJournal(tx, {
      merchantId: m.id,
      mode: "sandbox",
      chain: "eth",
      cause: { type: "payment", id: payment.id },
      entries: [
        { account: "available", amount: total },
        { account: "chain_deposits", amount: -total },
      ],
    });
  });
  return payment.id;
}
