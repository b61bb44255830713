import { expect } from "vitest";
import path from "node:path";
import { createPublicClient, http, numberToHex, parseAbiItem, type Address, type Hex, type PublicClient } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { createChainAdapter } from "@/lib/chains/connect/chain-families";
import type { ChainConfig } from "@/lib/chains/chain-config";
import type { Chain } from "@/lib/chains/chains";
import { getDb } from "@/lib/platform/db/client";
import { query } from "@/lib/platform/db/query";
import { createOutbound } from "@/lib/money-out/outbound/create-outbound";
import { candidateRow, outboundRow, type CandidateRow, type OutboundRow } from "@/lib/money-out/outbound/outbound-row";
import { sandboxChainOps } from "@/lib/chains/connect/chain-families";
import { roleKey } from "@/lib/chains/wallets/role-keys";
import { spawnWorker, type SpawnedWorker } from "@/scripts/lib/spawn-worker";
import { sandboxChain } from "../helpers/chains";

const root = path.resolve(import.meta.dirname, "../..");

/** A worker running only the outbound leader of `chain` (other test files own the other chains' leaders). */
export function startOutboundWorker(chain: Chain, env: Record<string, string> = {}): Promise<SpawnedWorker> {
  return spawnWorker(root, {
    WORKER_ROLES: "outbound",
    WATCH_CHAINS: chain,
    LOG_LEVEL: process.env.OUTBOUND_TEST_LOG ?? "error",
    SANDBOX_CONFIRMATIONS: "6",
    OUTBOUND_REPLACE_AFTER_BLOCKS: "3",
    ...env,
  });
}

export async function waitFor<T>(
  what: string,
  fn: () => Promise<T | null | undefined | false>,
  timeoutMs = 30_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await fn();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

export async function outbound(id: string): Promise<OutboundRow> {
  const [row] = await query(getDb(), `select ${outboundRow.columns} from outbound_transactions where id = $1`, [id]);
  return outboundRow.map(row!);
}

export async function candidates(id: string): Promise<CandidateRow[]> {
  return (
    await query(getDb(), `select ${candidateRow.columns} from outbound_candidates where outbound_id = $1 order by id`, [
      id,
    ])
  ).map(candidateRow.map);
}

export function waitForStatus(id: string, status: string, timeoutMs = 40_000): Promise<OutboundRow> {
  return waitFor(
    `${id} to be ${status}`,
    async () => {
      const row = await outbound(id);
      return row.status === status ? row : null;
    },
    timeoutMs,
  );
}

/** One EVM sandbox chain as the tests drive it: raw RPC, balances, the treasury, and USDT transfers counted by log. */
export async function evmChain(chain: Chain) {
  const config: ChainConfig = await sandboxChain(chain);
  const client: PublicClient = createPublicClient({ transport: http(config.rpcUrl), cacheTime: 0 });
  const rpc = <T>(method: string, params: unknown[] = []) =>
    client.request({ method: method as "eth_chainId", params: params as never }) as Promise<T>;
  const adapter = createChainAdapter(config);
  const [treasury, sweeper] = await Promise.all([
    roleKey(getDb(), "sandbox", chain, "treasury"),
    roleKey(getDb(), "sandbox", chain, "sweeper"),
  ]);
  return {
    config,
    client,
    rpc,
    treasury,
    sweeper,
    balanceOf: async (address: string) => (await adapter.balances(address)).token,
    fundTreasury: async (raw: bigint) => (await sandboxChainOps(config)).fund(treasury.address, raw),
    freshAddress: () => privateKeyToAccount(generatePrivateKey()).address,
    /** USDT Transfer logs into `to` over the whole chain: the count of transfers that really landed. */
    transfersTo: async (to: string) =>
      (
        await client.getLogs({
          address: config.tokenAddress as Address,
          event: parseAbiItem("event Transfer(address indexed from, address indexed to, uint256 value)"),
          args: { to: to as Address },
          fromBlock: 0n,
        })
      ).length,
    pauseMining: async () => {
      await rpc("evm_setIntervalMining", [0]);
      await rpc("evm_setAutomine", [false]);
    },
    resumeMining: () => rpc("evm_setIntervalMining", [config.blockTimeMs / 1000]),
    setNextBaseFee: (wei: bigint) => rpc("anvil_setNextBlockBaseFeePerGas", [numberToHex(wei)]),
    mine: (blocks = 1) => rpc("anvil_mine", [numberToHex(blocks)]),
    pending: async (hash: string) => (await rpc<unknown>("eth_getTransactionByHash", [hash as Hex])) !== null,
  };
}

export function sendFromTreasury(chain: Chain, treasuryAddress: string, to: string, raw: bigint, causeId?: string) {
  return createOutbound(getDb(), {
    mode: "sandbox",
    chain,
    purpose: "payout",
    signer: { role: "treasury" },
    fromAddress: treasuryAddress,
    toAddress: to,
    asset: "token",
    rawAmount: raw,
    causeId,
  });
}

/**
 * The budget of a test that crashes a worker and restarts it: two worker starts (seconds of CPU each, tens when
 * the machine is saturated) and a confirmation. 60 s ran out on tron when the custody phase shared both cores
 * with another run (tests/FLAKES.md); the tests still wait on their conditions, this only bounds a failure.
 */
export const RESTART_TEST_MS = 120_000;

/**
 * Stops the chain's running outbound worker, starts one that SIGKILLs itself at `point`, has `send` record an
 * intent, and waits for that crash. The caller starts the next worker.
 */
export async function crashWorkerAt(
  chain: Chain,
  running: SpawnedWorker | undefined,
  point: "after_sign" | "after_broadcast",
  send: () => Promise<{ id: string }>,
  env: Record<string, string> = {},
): Promise<{ id: string }> {
  await running?.stop();
  const worker = await startOutboundWorker(chain, { ...env, OUTBOUND_CRASH_AT: point });
  const exited = new Promise((resolve) => worker.process.once("exit", (_code, signal) => resolve(signal)));
  const intent = await send();
  expect(await exited).toBe("SIGKILL");
  return intent;
}
