import type { ChainConfig } from "@/lib/chains/chain-config";
import { fromUsdtUnits } from "@/lib/chains/chain-adapter";
import { getDb, inTransaction } from "@/lib/platform/db/client";
import { query } from "@/lib/platform/db/query";
import { createPayment } from "@/lib/money-in/payments/create-payment";
import { sandboxChainOps } from "@/lib/chains/connect/chain-families";
import { sleep } from "./wait";
import { fillAddressPool } from "./address-pools";
import { CHAIN_FAMILY } from "@/lib/chains/chains";

export type Owner = { merchantId: string; mode: "sandbox" };
export interface Paid {
  paymentId: string;
  address: string;
}

/**
 * `n` payments on a chain, each paid in full from its own sandbox wallet (one every `spacingMs`). Amounts in
 * the API's 6-decimal units: `amountUnits` plus 0.001 USDT per payment after the first.
 */
export async function payPayments(
  config: ChainConfig,
  owner: Owner,
  n: number,
  spacingMs = 100,
  amountUnits = 1_000_000n,
): Promise<Paid[]> {
  await fillAddressPool(CHAIN_FAMILY[config.chain], n);
  const payments = await inTransaction(getDb(), async (tx) => {
    const rows = [];
    for (let i = 0; i < n; i++)
      rows.push(await createPayment(tx, owner, { amount: amountUnits + BigInt(i) * 1_000n, chain: config.chain }));
    return rows;
  });
  const ops = await sandboxChainOps(config);
  const sends = [];
  for (const p of payments) {
    sends.push(ops.payFromSandboxWallet(p.depositAddress!, fromUsdtUnits(p.amountUnits, config.decimals)));
    await sleep(spacingMs);
  }
  await Promise.all(sends);
  return payments.map((p) => ({ paymentId: p.id, address: p.depositAddress! }));
}

/** Each payment's `confirmed_at` (ms) by deposit address, or null while any is not confirmed. */
export async function confirmedAt(paid: Paid[]): Promise<Map<string, number> | null> {
  const rows = await query<{ deposit_address: string; confirmed_at: Date | null }>(
    getDb(),
    "select deposit_address, confirmed_at from payments where id = any($1::text[])",
    [paid.map((p) => p.paymentId)],
  );
  if (rows.some((r) => r.confirmed_at === null)) return null;
  return new Map(rows.map((r) => [r.deposit_address, r.confirmed_at!.getTime()]));
}
