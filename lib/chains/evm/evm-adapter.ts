import {
  bytesToHex,
  createPublicClient,
  createWalletClient,
  defineChain,
  encodeFunctionData,
  http,
  numberToHex,
  type Address,
  type Hex,
  type PublicClient,
} from "viem";
import { privateKeyToAccount } from "viem/accounts";
import type { Chain } from "@/lib/chains/chains";
import { tokenTransferData } from "./evm-token";
import type { BlockRef, ChainAdapter, TokenTransfer } from "../chain-adapter";

/** keccak256("Transfer(address,address,uint256)") */
export const TRANSFER_TOPIC = "0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef";

const BALANCE_OF_ABI = [
  {
    type: "function",
    name: "balanceOf",
    stateMutability: "view",
    inputs: [{ name: "owner", type: "address" }],
    outputs: [{ name: "", type: "uint256" }],
  },
] as const;

/** Tether's blacklist read (USDT on Ethereum and Tron; the sandbox tokens answer it too). */
const IS_BLACKLISTED_ABI = [
  {
    type: "function",
    name: "isBlackListed",
    stateMutability: "view",
    inputs: [{ name: "account", type: "address" }],
    outputs: [{ name: "", type: "bool" }],
  },
] as const;

interface RpcLog {
  transactionHash: Hex;
  logIndex: Hex;
  blockNumber: Hex;
  blockHash: Hex;
  topics: Hex[];
  data: Hex;
  removed?: boolean;
}

/** Ethereum, BNB Smart Chain and Polygon through any JSON-RPC endpoint (viem), sandbox or live alike. */
export class EvmAdapter implements ChainAdapter {
  readonly family = "evm" as const;
  private readonly client: PublicClient;

  constructor(
    readonly chain: Chain,
    private readonly cfg: { rpcUrl: string; tokenAddress: string; chainId: number | null; batch?: boolean },
  ) {
    // cacheTime 0: viem would otherwise serve a cached block number for its polling interval, and
    // confirmations would be counted against a stale head. Concurrent calls go out as one JSON-RPC batch.
    this.client = createPublicClient({
      transport: http(cfg.rpcUrl, { batch: cfg.batch === false ? false : { wait: 0 }, retryCount: 1, timeout: 15_000 }),
      cacheTime: 0,
    });
  }

  async network(): Promise<string> {
    return String(Number(await this.client.request({ method: "eth_chainId" })));
  }

  async head(): Promise<number> {
    return Number(await this.client.request({ method: "eth_blockNumber" }));
  }

  async blocks(numbers: number[]): Promise<Map<number, BlockRef | null>> {
    const unique = [...new Set(numbers)];
    const headers = await Promise.all(
      unique.map(
        (n) =>
          this.client.request({ method: "eth_getBlockByNumber", params: [numberToHex(n), false] }) as Promise<{
            hash: Hex;
            timestamp: Hex;
          } | null>,
      ),
    );
    return new Map(
      unique.map((n, i) => [
        n,
        headers[i] ? { number: n, hash: headers[i]!.hash, time: new Date(Number(headers[i]!.timestamp) * 1000) } : null,
      ]),
    );
  }

  async transfers(from: number, to: number): Promise<TokenTransfer[]> {
    const logs = (await this.client.request({
      method: "eth_getLogs",
      params: [
        {
          address: this.cfg.tokenAddress as Address,
          topics: [TRANSFER_TOPIC],
          fromBlock: numberToHex(from),
          toBlock: numberToHex(to),
        },
      ],
    })) as RpcLog[];
    const transfers: TokenTransfer[] = [];
    // A transaction's logs all sit in one block, which the range holds whole: counting its Transfer logs
    // in log order gives each its rank within the transaction, unchanged if the transaction is re-mined.
    const seenInTx = new Map<string, number>();
    for (const log of [...logs].sort(
      (a, b) => Number(a.blockNumber) - Number(b.blockNumber) || Number(a.logIndex) - Number(b.logIndex),
    )) {
      if (log.removed) continue;
      const position = seenInTx.get(log.transactionHash) ?? 0;
      seenInTx.set(log.transactionHash, position + 1);
      // A standard Transfer has both addresses indexed; anything else with this topic is not a token move.
      if (log.topics.length !== 3) continue;
      transfers.push({
        txHash: log.transactionHash,
        logIndex: Number(log.logIndex),
        position,
        blockNumber: Number(log.blockNumber),
        blockHash: log.blockHash,
        from: `0x${log.topics[1]!.slice(26)}`,
        toKey: `0x${log.topics[2]!.slice(26)}`,
        rawAmount: log.data === "0x" ? 0n : BigInt(log.data),
      });
    }
    return transfers;
  }

  async transactionTransfers(txHash: string): Promise<TokenTransfer[] | null> {
    const receipt = (await this.client.request({
      method: "eth_getTransactionReceipt",
      params: [txHash as `0x${string}`],
    })) as { blockNumber?: string | null } | null;
    if (!receipt?.blockNumber) return null;
    const block = Number(receipt.blockNumber);
    return (await this.transfers(block, block)).filter((t) => t.txHash.toLowerCase() === txHash.toLowerCase());
  }

  async balances(address: string): Promise<{ token: bigint; native: bigint }> {
    const [token, native] = await Promise.all([
      this.client.request({
        method: "eth_call",
        params: [
          {
            to: this.cfg.tokenAddress as Address,
            data: encodeFunctionData({ abi: BALANCE_OF_ABI, functionName: "balanceOf", args: [address as Address] }),
          },
          "latest",
        ],
      }),
      this.client.request({ method: "eth_getBalance", params: [address as Address, "latest"] }),
    ]);
    return { token: token === "0x" ? 0n : BigInt(token), native: BigInt(native) };
  }

  async frozen(address: string): Promise<boolean> {
    const answer = await this.client.request({
      method: "eth_call",
      params: [
        {
          to: this.cfg.tokenAddress as Address,
          data: encodeFunctionData({
            abi: IS_BLACKLISTED_ABI,
            functionName: "isBlackListed",
            args: [address as Address],
          }),
        },
        "latest",
      ],
    });
    // No answer: the contract has no such function (a token without a blacklist, or not the token at all).
    if (answer === "0x") throw new Error(`the token ${this.cfg.tokenAddress} does not answer isBlackListed`);
    return BigInt(answer) !== 0n;
  }

  async sendToken(privateKey: Uint8Array, to: string, rawAmount: bigint): Promise<string> {
    const account = privateKeyToAccount(bytesToHex(privateKey));
    const chainId = this.cfg.chainId ?? (await this.client.getChainId());
    const chain = defineChain({
      id: chainId,
      name: this.chain,
      nativeCurrency: { name: "native", symbol: "NATIVE", decimals: 18 },
      rpcUrls: { default: { http: [this.cfg.rpcUrl] } },
    });
    const wallet = createWalletClient({ account, chain, transport: http(this.cfg.rpcUrl) });
    return wallet.sendTransaction({
      to: this.cfg.tokenAddress as Address,
      data: tokenTransferData(to, rawAmount),
    });
  }
}
