import { randomBytes } from "node:crypto";
import { encodeFunctionData, numberToHex, type Address } from "viem";
import { registerSandboxChain } from "@/lib/chains/register-sandbox-chain";
import { chainConfig } from "@/lib/chains/chain-config";
import { freePort } from "@/lib/platform/db/embedded";
import { getDb } from "@/lib/platform/db/client";
import { query } from "@/lib/platform/db/query";
import { readCursor } from "@/lib/money-in/watch/chain-cursor";
import { scanOnce } from "@/lib/money-in/watch/scan-chain";
import { scanTarget } from "@/lib/money-in/watch/start-watchers";
import { startAnvil } from "@/sandbox/evm/anvil";
import { deploySandboxToken } from "@/sandbox/evm/sandbox-token";
import { percentile } from "./stats";

const OWNER = "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266" as Address;
const ABI = [
  {
    type: "function",
    name: "mint",
    stateMutability: "nonpayable",
    inputs: [
      { name: "to", type: "address" },
      { name: "value", type: "uint256" },
    ],
    outputs: [],
  },
  {
    type: "function",
    name: "transfer",
    stateMutability: "nonpayable",
    inputs: [
      { name: "to", type: "address" },
      { name: "value", type: "uint256" },
    ],
    outputs: [],
  },
] as const;

export interface ScanCostFigures {
  openPayments: number;
  transfersPerBlock: number;
  depositsPerBlock: number;
  msPerBlock: { mean: number; p50: number; max: number };
  getLogsMs: number;
}

const randomAddress = () => `0x${randomBytes(20).toString("hex")}` as Address;

/**
 * (b) scan cost per block: an anvil mined by hand with `transfersPerBlock` real token transfers per block,
 * `depositsPerBlock` of them to open payments, scanned one block at a time by the watcher's own scanOnce,
 * first with `sizes[0]` open payments, then `sizes[1]`, … (payments are added between rounds).
 */
export async function measureScanCost(
  owner: { merchantId: string },
  sizes: number[],
  opts: { transfersPerBlock: number; depositsPerBlock: number; blocks: number },
): Promise<ScanCostFigures[]> {
  const anvil = await startAnvil({
    chainId: 900_001,
    port: await freePort(),
    extraArgs: ["--gas-limit", "500000000", "--code-size-limit", "50000"],
  });
  const rpc = async (method: string, params: unknown[]) => {
    const res = (await (
      await fetch(anvil.rpcUrl, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
      })
    ).json()) as { result?: unknown; error?: { message: string } };
    if (res.error) throw new Error(`${method}: ${res.error.message}`);
    return res.result;
  };
  const token = await deploySandboxToken(anvil.rpcUrl, "standard", 6);
  await rpc("eth_sendTransaction", [
    { from: OWNER, to: token, data: encodeFunctionData({ abi: ABI, functionName: "mint", args: [OWNER, 10n ** 30n] }) },
  ]);
  await rpc("evm_setAutomine", [false]);
  await registerSandboxChain(getDb(), {
    chain: "eth",
    rpcUrl: anvil.rpcUrl,
    chainId: 900_001,
    tokenAddress: token,
    decimals: 6,
    blockTimeMs: 1000,
    emulated: false,
  });
  const target = scanTarget((await chainConfig(getDb(), "sandbox", "eth", { fresh: true }))!);
  let nonce = Number(await rpc("eth_getTransactionCount", [OWNER, "latest"]));
  const results: ScanCostFigures[] = [];
  let open = 0;
  const watched: string[] = [];
  try {
    for (const size of sizes) {
      watched.push(...(await openPayments(owner.merchantId, size - open)));
      open = size;
      const times: number[] = [];
      let logsMs = 0;
      for (let b = 0; b < opts.blocks; b++) {
        const recipients = Array.from({ length: opts.transfersPerBlock }, (_, i) =>
          i < opts.depositsPerBlock ? (watched.pop() as Address) : randomAddress(),
        );
        const batch = recipients.map((to, i) => ({
          jsonrpc: "2.0",
          id: i,
          method: "eth_sendTransaction",
          params: [
            {
              from: OWNER,
              to: token,
              nonce: numberToHex(nonce + i),
              gas: "0x30000",
              data: encodeFunctionData({ abi: ABI, functionName: "transfer", args: [to, 1_000_000n] }),
            },
          ],
        }));
        nonce += recipients.length;
        const replies = (await (
          await fetch(anvil.rpcUrl, {
            method: "POST",
            headers: { "content-type": "application/json" },
            body: JSON.stringify(batch),
          })
        ).json()) as { error?: unknown }[];
        if (replies.some((r) => r.error))
          throw new Error(`sending transfers: ${JSON.stringify(replies.find((r) => r.error))}`);
        await rpc("anvil_mine", ["0x1"]);
        const head = Number(await rpc("eth_blockNumber", []));
        // Only the new block is left to scan: catch the cursor up to the block before it first.
        let cursor = await readCursor(getDb(), target);
        while (!cursor || cursor.number < head - 1) {
          await scanOnce(getDb(), { ...target, maxBlocksPerScan: Math.max(1, head - 1 - (cursor?.number ?? -1)) });
          cursor = await readCursor(getDb(), target);
        }
        const logsStart = performance.now();
        const logs = await target.adapter.transfers(head, head);
        logsMs += performance.now() - logsStart;
        if (logs.length !== opts.transfersPerBlock)
          throw new Error(`block ${head} has ${logs.length} transfers, expected ${opts.transfersPerBlock}`);
        const start = performance.now();
        const result = await scanOnce(getDb(), target);
        times.push(performance.now() - start);
        if (result.deposits !== opts.depositsPerBlock)
          throw new Error(`scan recorded ${result.deposits} deposits, expected ${opts.depositsPerBlock}`);
      }
      results.push({
        openPayments: size,
        transfersPerBlock: opts.transfersPerBlock,
        depositsPerBlock: opts.depositsPerBlock,
        msPerBlock: {
          mean: times.reduce((a, b) => a + b, 0) / times.length,
          p50: percentile(times, 50),
          max: Math.max(...times),
        },
        getLogsMs: logsMs / opts.blocks,
      });
    }
  } finally {
    await anvil.stop();
  }
  return results;
}

/**
 * Inserts `count` open eth payments with random deposit addresses
 * (set-based: 100k take seconds); returns their addresses.
 */
async function openPayments(merchantId: string, count: number): Promise<string[]> {
  const rows = await query<{ watch_key: string }>(
    getDb(),
    `insert into payments
       (id, merchant_id, mode, status, chain, amount_units, deposit_address, watch_key, created_at, expires_at)
     select 'pay_bench' || md5(random()::text || g), $1, 'sandbox', 'awaiting_payment', 'eth', 1000000, a, lower(a),
       now(), now() + interval '1 day'
     from (select g, '0x' || substr(md5(random()::text || g) || md5(g::text || random()::text), 1, 40) as a
           from generate_series(1, $2) g) s
     returning watch_key`,
    [merchantId, count],
  );
  await query(getDb(), "analyze payments"); // as autovacuum would after a bulk load
  return rows.map((r) => r.watch_key);
}
