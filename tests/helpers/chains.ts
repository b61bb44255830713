import path from "node:path";
import {
  createPublicClient,
  createWalletClient,
  defineChain,
  encodeFunctionData,
  http,
  type Address,
  type Hex,
  type LocalAccount,
} from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { sandboxChainConfigs, type ChainConfig } from "@/lib/chains/chain-config";
import type { Chain } from "@/lib/chains/chains";
import { getDb } from "@/lib/platform/db/client";
import { spawnWorker, type SpawnedWorker } from "@/scripts/lib/spawn-worker";
import { TOKEN_ABI } from "@/sandbox/evm/sandbox-token";
import { api, newKey } from "./api";

const root = path.resolve(import.meta.dirname, "../..");

export async function sandboxChain(chain: Chain): Promise<ChainConfig> {
  const config = (await sandboxChainConfigs(getDb(), { fresh: true })).find((c) => c.chain === chain);
  if (!config) throw new Error(`sandbox chain ${chain} is not registered`);
  return config;
}

/**
 * A worker process running only the chain watchers (the job runner belongs to other test files), for
 * some chains: each test file that drives chains watches its own, so one file's crash tests never meet
 * another file's watcher.
 */
export function startWatcherProcess(chains: Chain[], env: Record<string, string> = {}): Promise<SpawnedWorker> {
  return spawnWorker(root, { WORKER_ROLES: "watchers", WATCH_CHAINS: chains.join(","), LOG_LEVEL: "error", ...env });
}

/**
 * The watchers and the job runner in one process, for a browser test that needs its webhooks delivered without
 * leaning on another file's jobs worker (one process costs a start less than two). Its sweep cron stays out of
 * the other files' chains, as startJobsWorker's does.
 */
export const startWatcherAndJobsProcess = (chains: Chain[]) =>
  startWatcherProcess(chains, {
    WORKER_ROLES: "watchers,jobs",
    SANDBOX_SWEEP_THRESHOLD: "1000000",
    WEBHOOKS_ALLOW_PRIVATE_URLS: "true",
    WORKER_CONCURRENCY: "5",
  });

/**
 * A payer's fee offer: far above the sandbox base fee, so a payment is never refused while another test of
 * the run congests the shared chain (the sandbox `congest` control raises the next base fee to 50 gwei).
 * Only the base fee is paid; 1 ETH from the faucet covers the offer.
 */
const PAYER_FEES = { maxFeePerGas: 200_000_000_000n, maxPriorityFeePerGas: 1_000_000_000n };

/** A viem wallet of `account` on an EVM node (the sandbox's, or an anvil of a test's own). */
export function walletOn(rpcUrl: string, chainId: number, account: LocalAccount) {
  const chain = defineChain({
    id: chainId,
    name: `chain ${chainId}`,
    nativeCurrency: { name: "native", symbol: "N", decimals: 18 },
    rpcUrls: { default: { http: [rpcUrl] } },
  });
  return createWalletClient({ account, chain, transport: http(rpcUrl) });
}

/** A payer's own wallet: a fresh key, given test USDT and gas through the sandbox faucet. */
export async function fundedWallet(sandboxKey: string, chain: Chain, usdt: string) {
  const config = await sandboxChain(chain);
  const account = privateKeyToAccount(generatePrivateKey());
  const faucet = await api("POST", "/v1/sandbox/faucet", {
    key: sandboxKey,
    body: { chain, address: account.address, amount: usdt },
  });
  if (faucet.status !== 200) throw new Error(`faucet: ${faucet.text}`);
  const client = createPublicClient({ transport: http(config.rpcUrl), pollingInterval: 50, cacheTime: 0 });
  await client.waitForTransactionReceipt({ hash: faucet.json.tx_hash as Hex });
  const wallet = walletOn(config.rpcUrl, config.chainId!, account);
  const abi = chain === "eth" ? TOKEN_ABI.no_return : TOKEN_ABI.standard;
  return {
    address: account.address,
    config,
    client,
    wallet,
    /**
     * A USDT transfer as a wallet sends it: the token's own ABI, signed by the payer's key. With a `gas`
     * limit it is sent without an estimate, so a transfer that will revert still goes on chain.
     */
    send: (to: string, raw: bigint, opts: { gas?: bigint } = {}) =>
      wallet.writeContract({
        address: config.tokenAddress as Address,
        abi,
        functionName: "transfer",
        args: [to as Address, raw],
        gas: opts.gas,
        ...PAYER_FEES,
      }),
    /** The same transfer signed but not sent: the raw transaction can be broadcast (again) at will. */
    sign: async (to: string, raw: bigint): Promise<Hex> =>
      wallet.signTransaction(
        await wallet.prepareTransactionRequest({
          to: config.tokenAddress as Address,
          data: encodeFunctionData({ abi, functionName: "transfer", args: [to as Address, raw] }),
          ...PAYER_FEES,
        }),
      ),
  };
}

export interface PaymentWatch {
  statuses: string[];
  confirmations: number[];
  last: any;
}

/**
 * Polls GET /v1/payments/:id every 100 ms until `done`, recording every status and confirmation count
 * seen. It polls with read-only keys of its own (a fresh one whenever the 60/min limit is reached), so the
 * merchant's budget is left to the test.
 */
export async function watchPayment(
  merchantId: string,
  id: string,
  done: (p: any) => boolean,
  timeoutMs = 20_000,
): Promise<PaymentWatch> {
  const freshKey = async () => (await newKey(merchantId, "sandbox", ["payments:read"])).secret;
  let key = await freshKey();
  const seen: PaymentWatch = { statuses: [], confirmations: [], last: null };
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const reply = await api("GET", `/v1/payments/${id}`, { key });
    if (reply.status === 429) {
      key = await freshKey();
      continue;
    }
    const p = reply.json;
    seen.last = p;
    if (seen.statuses.at(-1) !== p.status) seen.statuses.push(p.status);
    if (seen.confirmations.at(-1) !== p.confirmations) seen.confirmations.push(p.confirmations);
    if (done(p)) return seen;
    if (Date.now() > deadline)
      throw new Error(`payment ${id} did not reach the expected state; last: ${JSON.stringify(p)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** The payment's events, oldest first (the event list is newest first). */
export async function paymentEvents(key: string, id: string): Promise<{ type: string; data: { object: any } }[]> {
  const list = (await api("GET", "/v1/events?limit=100", { key })).json;
  return (list.data as { type: string; data: { object: any } }[]).filter((e) => e.data.object.id === id).reverse();
}

/**
 * The merchant's balance on a chain. A key may read 60 times a minute: a poll that reaches the limit waits the
 * Retry-After the 429 gives, as a client should (CI once saw a 15 s balance poll run into it).
 */
export async function balanceOf(key: string, chain: Chain): Promise<{ available: string; reserved: string }> {
  let reply = await api("GET", "/v1/balances", { key });
  while (reply.status === 429) {
    await new Promise((r) => setTimeout(r, Number(reply.headers.get("retry-after") ?? 1) * 1000));
    reply = await api("GET", "/v1/balances", { key });
  }
  if (reply.status !== 200) throw new Error(`GET /v1/balances answered ${reply.status}: ${reply.text}`);
  const list = reply.json;
  const entry = (list.data as { chain: string; available: string; reserved: string }[]).find((b) => b.chain === chain);
  return { available: entry?.available ?? "0.000000", reserved: entry?.reserved ?? "0.000000" };
}

/** Polls the balance list until the chain's entry equals `expected`. */
export async function waitForBalance(
  key: string,
  chain: Chain,
  expected: { available: string; reserved: string },
  timeoutMs = 15_000,
) {
  const deadline = Date.now() + timeoutMs;
  let last = await balanceOf(key, chain);
  while (JSON.stringify(last) !== JSON.stringify(expected)) {
    if (Date.now() > deadline)
      throw new Error(`balance on ${chain} is ${JSON.stringify(last)}, expected ${JSON.stringify(expected)}`);
    await new Promise((r) => setTimeout(r, 500)); // at most 30 of the key's 60 reads a minute in 15 s
    last = await balanceOf(key, chain);
  }
}
