import type { ChainConfig } from "@/lib/chains/chain-config";
import { tronJsonRpcUrl } from "@/lib/chains/tron/tron-adapter";

const TIMEOUT_MS = 15_000;

/** A block header as /wallet and /walletsolidity give it. */
export interface TronBlock {
  blockID?: string;
  block_header?: { raw_data: { number?: number; timestamp: number } };
}

/** gettransactioninfobyid: `{}` until the transaction is in a block. `fee` is every sun it burnt. */
export interface TronTxInfo {
  id?: string;
  blockNumber?: number;
  fee?: number;
  result?: string;
  contractResult?: string[];
  receipt?: {
    result?: string;
    energy_usage?: number;
    energy_fee?: number;
    energy_usage_total?: number;
    net_usage?: number;
    net_fee?: number;
  };
}

/** java-tron's hex-encoded message text (broadcast refusals, failed constant calls), as text. */
export const hexText = (hex: string | undefined): string =>
  hex && /^([0-9a-f]{2})+$/i.test(hex) ? Buffer.from(hex, "hex").toString("utf8") : (hex ?? "");

/** broadcasttransaction's answer; `message` is hex-encoded text. */
export interface TronBroadcastReply {
  result?: boolean;
  code?: string;
  message?: string;
  txid?: string;
  Error?: string;
}

/**
 * The Tron node the outbound driver talks to: java-tron's HTTP API (`/wallet`, and `/walletsolidity` for the
 * solidified view) and its Ethereum-style `/jsonrpc`, the one the watcher reads blocks through. Live and
 * sandbox differ only in these URLs.
 */
export class TronNode {
  private readonly host: string;
  private readonly jsonRpcUrl: string;

  constructor(config: ChainConfig) {
    this.host = config.rpcUrl.replace(/\/+$/, "");
    this.jsonRpcUrl = tronJsonRpcUrl(config);
  }

  private async post<T>(url: string, body: unknown): Promise<T> {
    const res = await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
    if (!res.ok) throw new Error(`${url}: HTTP ${res.status}`);
    return (await res.json()) as T;
  }

  wallet<T>(path: string, body: unknown): Promise<T> {
    return this.post<T>(`${this.host}/wallet/${path}`, body);
  }

  solidity<T>(path: string, body: unknown): Promise<T> {
    return this.post<T>(`${this.host}/walletsolidity/${path}`, body);
  }

  async rpc<T>(method: string, params: unknown[]): Promise<T> {
    const reply = await this.post<{ result?: T; error?: { message: string } }>(this.jsonRpcUrl, {
      jsonrpc: "2.0",
      id: 1,
      method,
      params,
    });
    if (reply.error) throw new Error(`${method}: ${reply.error.message}`);
    return reply.result as T;
  }
}
