import { randomBytes } from "node:crypto";
import { TronWeb } from "tronweb";
import { createChainAdapter } from "@/lib/chains/connect/chain-families";
import { tronToEvmHex } from "@/lib/chains/addresses/tron-address";
import { getDb } from "@/lib/platform/db/client";
import { createOutbound } from "@/lib/money-out/outbound/create-outbound";
import { TronNode, type TronBlock } from "@/lib/chains/tron/tron-node";
import { sandboxChainOps } from "@/lib/chains/connect/chain-families";
import { roleKey } from "@/lib/chains/wallets/role-keys";
import { sandboxChain } from "../helpers/chains";

const TRANSFER_TOPIC = "0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef";
/** The emulator's /jsonrpc answers eth_getLogs over at most 5000 blocks. */
const LOG_RANGE = 4_900;

/** The sandbox Tron chain as the outbound tests drive it: its facade, its backing anvil, the service's roles. */
export async function tronChain() {
  const config = await sandboxChain("tron");
  const adapter = createChainAdapter(config);
  const node = new TronNode(config);
  const ops = await sandboxChainOps(config);
  const [treasury, sweeper] = await Promise.all([
    roleKey(getDb(), "sandbox", "tron", "treasury"),
    roleKey(getDb(), "sandbox", "tron", "sweeper"),
  ]);
  const anvil = async <T>(method: string, params: unknown[] = []): Promise<T> => {
    const res = await fetch(config.extra.anvilRpcUrl!, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
    });
    const body = (await res.json()) as { result?: T; error?: { message: string } };
    if (body.error) throw new Error(`${method}: ${body.error.message}`);
    return body.result as T;
  };
  const blockTime = async (solidified: boolean) =>
    (await (solidified ? node.solidity<TronBlock>("getnowblock", {}) : node.wallet<TronBlock>("getnowblock", {})))
      .block_header!.raw_data.timestamp;
  return {
    config,
    node,
    treasury,
    sweeper,
    anvil,
    blockTime,
    /** USDT in the token's base units, TRX in sun. */
    balances: (address: string) => adapter.balances(address),
    fundTreasury: (raw: bigint) => ops.fund(treasury.address, raw),
    freeze: (address: string) => ops.setFrozen(address, true),
    freshAddress: () => TronWeb.address.fromPrivateKey(randomBytes(32).toString("hex")) as string,
    /** USDT Transfer logs into `to` (through /jsonrpc, as the watcher reads them): the transfers that really landed. */
    transfersTo: async (to: string) => {
      const head = await node.rpc<string>("eth_blockNumber", []);
      const logs = await node.rpc<unknown[]>("eth_getLogs", [
        {
          address: tronToEvmHex(config.tokenAddress),
          topics: [TRANSFER_TOPIC, null, `0x${tronToEvmHex(to).slice(2).padStart(64, "0")}`],
          fromBlock: `0x${Math.max(0, Number(head) - LOG_RANGE).toString(16)}`,
          toBlock: "latest",
        },
      ]);
      return logs.length;
    },
    /**
     * Moves the chain's clock past `ms` (epoch milliseconds) and mines enough blocks that the solidified block
     * (head − the chain's solidification lag) is past it too: anvil's time offset (evm_increaseTime) applies to every
     * later block.
     */
    passTime: async (ms: bigint) => {
      const behind = Number(ms) - (await blockTime(false));
      if (behind >= 0) await anvil("evm_increaseTime", [Math.ceil(behind / 1000) + 2]);
      await anvil("anvil_mine", [`0x${(config.confirmations.required + 2).toString(16)}`]);
    },
  };
}

/** A TRX gas top-up from the sweeper, as a sweep's would be. */
export function topUpFromSweeper(sweeperAddress: string, to: string, sun: bigint) {
  return createOutbound(getDb(), {
    mode: "sandbox",
    chain: "tron",
    purpose: "gas_topup",
    signer: { role: "sweeper" },
    fromAddress: sweeperAddress,
    toAddress: to,
    asset: "native",
    rawAmount: sun,
  });
}
