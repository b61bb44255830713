import { randomBytes } from "node:crypto";
import { TronWeb } from "tronweb";
import { encodeFunctionData, parseAbi, type Address } from "viem";
import { DomainError } from "@/lib/kernel/domain-error";
import type { ChainConfig } from "@/lib/chains/chain-config";
import { TronAdapter } from "@/lib/chains/tron/tron-adapter";
import { tronToEvmHex } from "@/lib/chains/addresses/tron-address";
import { callAsTokenOwner, waitMined } from "@/sandbox/tron/token-owner";
import { fundTronAddress, type TronSandboxInfo } from "@/sandbox/tron/tron-sandbox";
import { congestWith, evmChainsOnly, tokenCannotFreeze } from "../chain-control-errors";
import type { SandboxChainOps } from "../sandbox-chain-ops";

const TRX_FOR_GAS = 100_000_000n; // 100 TRX, in sun
const FROZEN_ABI = parseAbi(["function frozen(address account) view returns (bool)"]);

/** A registered sandbox Tron chain as the emulator's own helpers (its faucet) address it. */
export function tronSandboxInfo(config: ChainConfig): TronSandboxInfo {
  return {
    fullHost: config.rpcUrl,
    jsonRpcUrl: config.extra.jsonRpcUrl!,
    anvilRpcUrl: config.extra.anvilRpcUrl!,
    token: config.tokenAddress,
    tokenHex: tronToEvmHex(config.tokenAddress),
    decimals: 6,
    blockTimeMs: config.blockTimeMs,
    solidLag: config.confirmations.required,
  };
}

/** The emulated Tron chain: funding through its facade (signed Tron transactions), mining on its anvil. */
export class TronOps implements SandboxChainOps {
  private readonly info: TronSandboxInfo;

  constructor(private readonly config: ChainConfig) {
    this.info = tronSandboxInfo(config);
  }

  private async anvil<T>(method: string, params: unknown[]): Promise<T> {
    const res = await fetch(this.info.anvilRpcUrl, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
    });
    const body = (await res.json()) as { result?: T; error?: { message: string } };
    if (body.error) throw new Error(`${method}: ${body.error.message}`);
    return body.result as T;
  }

  async fund(address: string, rawAmount: bigint): Promise<string> {
    return (await fundTronAddress(this.info, address, { usdtUnits: rawAmount, trxSun: TRX_FOR_GAS })).txID;
  }

  async fundNative(address: string): Promise<{ txHash: string; amount: bigint }> {
    const { trxTxID } = await fundTronAddress(this.info, address, { trxSun: TRX_FOR_GAS }); // resolves once mined
    return { txHash: trxTxID!, amount: TRX_FOR_GAS };
  }

  async payFromSandboxWallet(to: string, rawAmount: bigint): Promise<{ from: string; txHash: string }> {
    const key = randomBytes(32);
    const from = TronWeb.address.fromPrivateKey(key.toString("hex"));
    if (!from) throw new Error("could not derive a Tron address");
    await this.fund(from, rawAmount); // resolves once mined
    const txHash = await new TronAdapter(this.config.chain, {
      fullHost: this.info.fullHost,
      jsonRpcUrl: this.info.jsonRpcUrl,
      tokenAddress: this.info.token,
    }).sendToken(key, to, rawAmount);
    return { from, txHash };
  }

  async mine(blocks: number): Promise<number> {
    await this.anvil("anvil_mine", [`0x${blocks.toString(16)}`]);
    return Number(await this.anvil<string>("eth_blockNumber", []));
  }

  async reorg(): Promise<number> {
    throw new DomainError(
      "invalid_request_error",
      "The emulated tron chain cannot reorganize: its facade keeps no alternative history.",
      { param: "chain" },
    );
  }

  async setFrozen(address: string, frozen: boolean): Promise<string | null> {
    // Read on the backing anvil (the facade's own reads are Tron-shaped); a token without the getter reverts.
    const data = encodeFunctionData({ abi: FROZEN_ABI, args: [tronToEvmHex(address) as Address] });
    const current = await this.anvil<string>("eth_call", [{ to: this.info.tokenHex, data }, "latest"]).catch(
      (err: unknown) => {
        if (/revert/i.test(String(err)))
          throw tokenCannotFreeze("tron", "it was deployed before the freeze control existed");
        throw err;
      },
    );
    if (current === "0x") throw tokenCannotFreeze("tron", "it was deployed before the freeze control existed");
    if ((BigInt(current) === 1n) === frozen) return null;
    // Sent through the facade as the owner's Tron transaction, like the faucet's mint.
    const txID = await callAsTokenOwner(this.info, frozen ? "freeze(address)" : "unfreeze(address)", [
      { type: "address", value: address },
    ]);
    await waitMined(this.info, txID);
    return txID;
  }

  async congest(): Promise<never> {
    throw congestWith(null, "tron");
  }

  async dropTransaction(): Promise<never> {
    throw evmChainsOnly("drop", "tron");
  }
}
