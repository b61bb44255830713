import { randomBytes } from "node:crypto";
import { base58 } from "@scure/base";
import { TronWeb } from "tronweb";
import type { ChainConfig } from "@/lib/chains/chain-config";
import { fromUsdtUnits } from "@/lib/chains/chain-adapter";
import { watchKey } from "@/lib/chains/connect/watch-key";
import { getDb, inTransaction } from "@/lib/platform/db/client";
import { query } from "@/lib/platform/db/query";
import { createPayment } from "@/lib/money-in/payments/create-payment";
import { sandboxChainOps } from "@/lib/chains/connect/chain-families";
import { CursorMovedError } from "@/lib/money-in/watch/chain-cursor";
import { scanOnce } from "@/lib/money-in/watch/scan-chain";
import { scanTarget } from "@/lib/money-in/watch/start-watchers";
import { percentile } from "./stats";
import { fillAddressPool } from "../lib/address-pools";
import { CHAIN_FAMILY } from "@/lib/chains/chains";

export interface DetectionFigures {
  chain: string;
  openPayments: number;
  scans: number;
  msPerBlock: number | null;
  msPerScan: { mean: number; p50: number; p95: number };
  detected: number;
}

const randomAddress = (chain: string) =>
  chain === "tron" ? TronWeb.address.fromHex(`41${randomBytes(20).toString("hex")}`) : base58.encode(randomBytes(32));

/**
 * Detection cost on an emulated chain while `open` payments are open: the watcher's own scanOnce, run
 * back to back in this process (no worker), timed per scan while `paid` real payments are paid and found.
 */
export async function measureDetectionCost(
  config: ChainConfig,
  owner: { merchantId: string; mode: "sandbox" },
  open: number,
  paid: number,
): Promise<DetectionFigures> {
  // The open payments already there (an earlier, smaller round) count: only the difference is added.
  const [already] = await query<{ n: number }>(
    getDb(),
    "select count(*)::int as n from payments where mode = 'sandbox' and chain = $1 and status = 'awaiting_payment'",
    [config.chain],
  );
  const addresses = Array.from({ length: Math.max(0, open - paid - already!.n) }, () => randomAddress(config.chain));
  await query(
    getDb(),
    `insert into payments
       (id, merchant_id, mode, status, chain, amount_units, deposit_address, watch_key, created_at, expires_at)
     select 'pay_bench' || md5(random()::text || a), $1, 'sandbox', 'awaiting_payment', $2, 1000000, a, k,
       now(), now() + interval '1 day'
     from unnest($3::text[], $4::text[]) as t(a, k)`,
    [owner.merchantId, config.chain, addresses, addresses.map((a) => watchKey(config.chain, a))],
  );
  await query(getDb(), "analyze payments");
  // The paid payments take their addresses from the pool, as the API's do (no worker refills it here).
  await fillAddressPool(CHAIN_FAMILY[config.chain], paid);
  const payments = await inTransaction(getDb(), async (tx) => {
    const rows = [];
    for (let i = 0; i < paid; i++)
      rows.push(await createPayment(tx, owner, { amount: 1_000_000n, chain: config.chain }));
    return rows;
  });
  const target = scanTarget(config);
  await scanOnce(getDb(), target).catch(() => undefined); // warm: a first scan derives every ATA once
  const ops = await sandboxChainOps(config);
  const paying = Promise.all(
    payments.map((p) => ops.payFromSandboxWallet(p.depositAddress!, fromUsdtUnits(p.amountUnits, config.decimals))),
  );
  const times: number[] = [];
  let slots = 0;
  let reading = 0; // ms spent in scans that read blocks (an idle scan, the head unchanged, reads none)
  let detected = 0;
  const deadline = Date.now() + 120_000;
  let paidAll = false;
  void paying.then(() => (paidAll = true));
  while (Date.now() < deadline) {
    const start = performance.now();
    const scan = await scanOnce(getDb(), target).catch((err) => {
      if (!(err instanceof CursorMovedError)) throw err;
    });
    const took = performance.now() - start;
    times.push(took);
    if (scan?.to !== undefined && scan.from !== undefined) {
      slots += scan.to - scan.from + 1;
      reading += took;
    }
    const [row] = await query<{ n: string }>(
      getDb(),
      "select count(*)::text as n from payments where id = any($1::text[]) and status <> 'awaiting_payment'",
      [payments.map((p) => p.id)],
    );
    detected = Number(row!.n);
    if (paidAll && detected === paid) break;
    await new Promise((r) => setTimeout(r, Math.max(20, config.blockTimeMs / 4)));
  }
  await paying;
  return {
    chain: config.chain,
    openPayments: open,
    scans: times.length,
    /** The scans that read blocks (slots), over the blocks they read. */
    msPerBlock: slots ? reading / slots : null,
    msPerScan: {
      mean: times.reduce((a, b) => a + b, 0) / times.length,
      p50: percentile(times, 50),
      p95: percentile(times, 95),
    },
    detected,
  };
}
