import { createPublicClient, http, type Hex } from "viem";
import { createSolanaRpc, type Signature } from "@solana/kit";
import type { ChainConfig } from "@/lib/chains/chain-config";
import { fromUsdtUnits } from "@/lib/chains/chain-adapter";
import { getDb, inTransaction } from "@/lib/platform/db/client";
import { query } from "@/lib/platform/db/query";
import { createPayment } from "@/lib/money-in/payments/create-payment";
import { sandboxChainOps } from "@/lib/chains/connect/chain-families";
import { percentile } from "./stats";
import { fillAddressPool } from "../lib/address-pools";
import { CHAIN_FAMILY } from "@/lib/chains/chains";

export interface LatencyFigures {
  chain: string;
  n: number;
  minedToPending: { p50: number; p95: number; max: number };
  sentToPending: { p50: number; p95: number };
}

/**
 * (a) deposit mined → payment `pending`: `n` payments on one chain, each paid by a real transfer from its
 * own sandbox wallet, one every `spacingMs`. "Mined" is when a 10 ms poll of the node first shows the
 * transfer in a block (EVM, tron) or confirmed in a slot (solana); "pending" is when a 10 ms poll of the
 * database first shows the payment past awaiting_payment (the watcher runs in its own worker process).
 */
export async function measureDepositLatency(
  config: ChainConfig,
  owner: { merchantId: string; mode: "sandbox" },
  n: number,
  spacingMs: number,
): Promise<LatencyFigures> {
  // Addresses from the pool, as the API's payments take them: filled here rather than raced with the refill job.
  await fillAddressPool(CHAIN_FAMILY[config.chain], n);
  const payments = await inTransaction(getDb(), async (tx) => {
    const rows = [];
    for (let i = 0; i < n; i++)
      rows.push(await createPayment(tx, owner, { amount: 1_000_000n + BigInt(i), chain: config.chain }));
    return rows;
  });
  const ops = await sandboxChainOps(config);
  const sentAt = new Map<string, number>(); // tx → ms
  const txOf = new Map<string, string>(); // tx → payment
  const minedAt = new Map<string, number>();
  const pendingAt = new Map<string, number>();
  let done = false;

  const watchBlocks = watchLanding(config, txOf, minedAt, () => done);
  const watchPayments = (async () => {
    const ids = payments.map((p) => p.id);
    while (!done) {
      const rows = await query<{ id: string }>(
        getDb(),
        "select id from payments where id = any($1::text[]) and status <> 'awaiting_payment'",
        [ids],
      );
      const now = Date.now();
      for (const r of rows) if (!pendingAt.has(r.id)) pendingAt.set(r.id, now);
      await new Promise((r) => setTimeout(r, 10));
    }
  })();

  const sends: Promise<void>[] = [];
  for (const payment of payments) {
    sends.push(
      (async () => {
        // payFromSandboxWallet funds a fresh payer first; "sent" is when its transfer leaves.
        const { txHash } = await ops.payFromSandboxWallet(
          payment.depositAddress!,
          fromUsdtUnits(payment.amountUnits, config.decimals),
        );
        sentAt.set(txHash, Date.now());
        txOf.set(txHash, payment.id);
      })(),
    );
    await new Promise((r) => setTimeout(r, spacingMs));
  }
  await Promise.all(sends);
  const deadline = Date.now() + 60_000;
  while (pendingAt.size < n && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
  done = true;
  await Promise.all([watchBlocks, watchPayments]);

  const mined: number[] = [];
  const sent: number[] = [];
  for (const [tx, paymentId] of txOf) {
    const pending = pendingAt.get(paymentId);
    if (pending === undefined) continue;
    if (minedAt.has(tx)) mined.push(pending - minedAt.get(tx)!);
    sent.push(pending - sentAt.get(tx)!);
  }
  return {
    chain: config.chain,
    n: pendingAt.size,
    minedToPending: { p50: percentile(mined, 50), p95: percentile(mined, 95), max: Math.max(...mined) },
    sentToPending: { p50: percentile(sent, 50), p95: percentile(sent, 95) },
  };
}

/** Records when each sent transaction is first seen on chain, polling every 10 ms until `stop()`. */
async function watchLanding(
  config: ChainConfig,
  txOf: Map<string, string>,
  minedAt: Map<string, number>,
  stop: () => boolean,
): Promise<void> {
  if (config.family === "solana") {
    const rpc = createSolanaRpc(config.rpcUrl);
    while (!stop()) {
      const waiting = [...txOf.keys()].filter((tx) => !minedAt.has(tx)).slice(0, 256);
      if (waiting.length) {
        const { value } = await rpc.getSignatureStatuses(waiting as Signature[]).send();
        const now = Date.now();
        value.forEach((status, i) => {
          if (status && !minedAt.has(waiting[i]!)) minedAt.set(waiting[i]!, now);
        });
      }
      await new Promise((r) => setTimeout(r, 10));
    }
    return;
  }
  // Tron's /jsonrpc names transactions by their Tron id with 0x; the service stores it without.
  const url = config.family === "tron" ? config.extra.jsonRpcUrl! : config.rpcUrl;
  const client = createPublicClient({ transport: http(url), cacheTime: 0 });
  let last = Number(await client.getBlockNumber());
  while (!stop()) {
    const head = Number(await client.getBlockNumber());
    for (let b = last + 1; b <= head; b++) {
      const block = (await client.request({
        method: "eth_getBlockByNumber",
        params: [`0x${b.toString(16)}`, false],
      })) as { transactions: Hex[] };
      const seen = Date.now();
      for (const raw of block.transactions) {
        const tx = config.family === "tron" ? raw.slice(2) : raw;
        if (txOf.has(tx) && !minedAt.has(tx)) minedAt.set(tx, seen);
      }
    }
    last = head;
    await new Promise((r) => setTimeout(r, 10));
  }
}
