import { address, createSolanaRpc, type Signature } from "@solana/kit";
import type { ChainConfig } from "@/lib/chains/chain-config";
import { sandboxChainOps } from "@/lib/chains/connect/chain-families";
import { roleKey } from "@/lib/chains/wallets/role-keys";
import { getDb } from "@/lib/platform/db/client";
import { query } from "@/lib/platform/db/query";
import { treasuryPayout } from "./treasury-payout";
import { sleep, until } from "./wait";

const USDT = 1_000_000n;

/**
 * Solana payouts under congestion (the emulator's fee market): `n` payouts created back to back while the other
 * users' traffic pays `first` micro-lamports per compute unit, the congestion raised to `second` halfway
 * (payouts signed at the old price wait, expire and are re-signed at the new one). Prints how many confirmed,
 * the re-signs per payout, the prices offered against the cap, and whether every recorded fee is the chain's
 * and the treasury's SOL spent is exactly the fees and the new token accounts' rent.
 */
export async function solanaCongestionRound(config: ChainConfig, n: number, first: bigint, second: bigint) {
  const ops = await sandboxChainOps(config);
  const rpc = createSolanaRpc(config.rpcUrl);
  const treasury = await roleKey(getDb(), "sandbox", "solana", "treasury");
  await ops.fund(treasury.address, BigInt(n) * USDT);
  const lamports = async () =>
    (await rpc.getBalance(address(treasury.address), { commitment: "confirmed" }).send()).value;
  const cap = config.maxComputeUnitPrice!;
  console.log(
    `Solana: ${n} payouts to new addresses under congestion (${first}, ` +
      `then ${second} micro-lamports per unit; cap ${cap})`,
  );
  await ops.congest({ computeUnitPrice: first });
  await sleep(20 * config.blockTimeMs); // the recent slots the driver reads are congested
  const before = await lamports();
  const started = Date.now();
  const statusesOf = async (ids: string[]) =>
    (
      await query<{ status: string }>(getDb(), "select status from outbound_transactions where id = any($1::text[])", [
        ids,
      ])
    ).map((r) => r.status);
  // Three groups: A under a steady 50,000; B created as the price jumps (signed on the recent slots' old
  // price, so priced out: held until its blockhash expires, then re-signed); C once the recent slots show the jump.
  const groups: string[][] = [[], [], []];
  const create = async (group: string[], count: number) => {
    for (let i = 0; i < count; i++) group.push((await treasuryPayout(config, treasury.address)).id);
  };
  const third = Math.floor(n / 3);
  await create(groups[0]!, third);
  await until(
    "group A broadcast",
    async () => (await statusesOf(groups[0]!)).every((s) => s !== "intent" && s !== "signed"),
    120_000,
  );
  await ops.congest({ computeUnitPrice: second });
  await create(groups[1]!, third);
  await sleep(25 * config.blockTimeMs);
  await create(groups[2]!, n - 2 * third);
  const ids = groups.flat();
  type Row = {
    id: string;
    status: string;
    resigns: number;
    fee: string | null;
    rent: string | null;
    tx: string | null;
  };
  type Usage = { compute_unit_price?: string };
  let rows: (Row & { usage: Usage | null })[] = [];
  await until(
    "every payout ended",
    async () => {
      rows = await query(
        getDb(),
        `select id, status, resigns, fee_native::text as fee, rent_paid_native::text as rent, tx_hash as tx,
           fee_usage as usage
         from outbound_transactions where id = any($1::text[])`,
        [ids],
      );
      return rows.every((r) => ["confirmed", "reverted", "expired"].includes(r.status));
    },
    900_000,
  );
  const seconds = ((Date.now() - started) / 1000).toFixed(0);
  await ops.congest({ computeUnitPrice: 0n });
  const byId = new Map(rows.map((r) => [r.id, r]));
  const resignsOf = (group: string[]) => {
    const counts = new Map<number, number>();
    for (const id of group) counts.set(byId.get(id)!.resigns, (counts.get(byId.get(id)!.resigns) ?? 0) + 1);
    return [...counts]
      .sort(([a], [b]) => a - b)
      .map(([k, v]) => `${v} × ${k}`)
      .join(", ");
  };
  const priceRange = (group: string[]) => {
    const prices = group.map((id) => BigInt(byId.get(id)!.usage?.compute_unit_price ?? 0));
    let low = prices[0] ?? 0n;
    let high = 0n;
    for (const price of prices) {
      if (price < low) low = price;
      if (price > high) high = price;
    }
    return low === high ? `${low}` : `${low}–${high}`;
  };
  let maxPrice = 0n;
  for (const r of rows)
    if (BigInt(r.usage?.compute_unit_price ?? 0) > maxPrice) maxPrice = BigInt(r.usage!.compute_unit_price!);
  const fees = rows.reduce((sum, r) => sum + BigInt(r.fee ?? 0), 0n);
  const rent = rows.reduce((sum, r) => sum + BigInt(r.rent ?? 0), 0n);
  const wrong: string[] = [];
  for (const r of rows.filter((x) => x.tx)) {
    const tx = await rpc
      .getTransaction(r.tx as Signature, {
        commitment: "confirmed",
        encoding: "json",
        maxSupportedTransactionVersion: 0,
      })
      .send();
    if (BigInt(tx?.meta?.fee ?? -1n) !== BigInt(r.fee ?? 0))
      wrong.push(`${r.tx}: recorded ${r.fee}, chain ${tx?.meta?.fee}`);
  }
  const spent = before - (await lamports());
  const confirmed = rows.filter((r) => r.status === "confirmed").length;
  console.log(`${confirmed} of ${n} confirmed in ${seconds} s (target: all)`);
  const names = ["A (steady)", "B (as it jumps)", "C (after it)"];
  for (const [i, group] of groups.entries())
    console.log(
      `  ${names[i]!.padEnd(16)} ${group.length} payouts, re-signs ${resignsOf(group)}, price ${priceRange(group)}`,
    );

  console.log(
    `re-signed more than once: ${rows.filter((r) => r.resigns > 1).length} (target none); ` +
      `highest price ${maxPrice} (cap ${cap}: ${maxPrice <= cap ? "within" : "ABOVE"})`,
  );
  console.log(
    `fees ${fees} lamports (${(Number(fees) / n).toFixed(0)} per payout), rent ${rent}; ` +
      `${wrong.length ? `fees NOT matching the chain: ${wrong.join("; ")}` : "every fee equal to the chain's"}; ` +
      `treasury spent ${spent} = fees + rent: ${spent === fees + rent ? "yes" : "NO"}`,
  );
}
