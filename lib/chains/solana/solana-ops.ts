import { randomBytes } from "node:crypto";
import { createKeyPairSignerFromPrivateKeyBytes } from "@solana/kit";
import { DomainError } from "@/lib/kernel/domain-error";
import type { ChainConfig } from "@/lib/chains/chain-config";
import { SolanaAdapter } from "@/lib/chains/solana/solana-adapter";
import { decryptSecret } from "@/lib/platform/secrets/encryption";
import { masterKey } from "@/lib/platform/secrets/master-key";
import { SOLANA_MINT_AUTHORITY_PURPOSE } from "@/sandbox/registrations";
import { airdropSol, fundSolanaAddress } from "@/sandbox/solana/solana-faucet";
import { NoFreezeAuthorityError, setSolanaFrozen } from "@/sandbox/solana/solana-freeze";
import { congestWith, evmChainsOnly, tokenCannotFreeze } from "../chain-control-errors";
import type { Congested, CongestLevel, SandboxChainOps } from "../sandbox-chain-ops";

const SOL_FOR_FEES = 1_000_000_000n; // 1 SOL, in lamports

/** The emulated Solana chain: minting with the sandbox mint authority, slots advanced through its facade. */
export class SolanaOps implements SandboxChainOps {
  constructor(private readonly config: ChainConfig) {}

  private info() {
    return {
      rpcUrl: this.config.rpcUrl,
      mint: this.config.tokenAddress,
      decimals: 6 as const,
      mintAuthority: "",
      slotMs: this.config.blockTimeMs,
      finalityDepth: this.config.confirmations.required,
    };
  }

  private mintAuthority(): Uint8Array {
    return new Uint8Array(decryptSecret(masterKey(), this.config.extra.mintAuthority!, SOLANA_MINT_AUTHORITY_PURPOSE));
  }

  async fund(address: string, rawAmount: bigint): Promise<string> {
    return (
      await fundSolanaAddress(this.info(), this.mintAuthority(), address, {
        usdtUnits: rawAmount,
        lamports: SOL_FOR_FEES,
      })
    ).signature;
  }

  async fundNative(address: string): Promise<{ txHash: string; amount: bigint }> {
    return { txHash: await airdropSol(this.info().rpcUrl, address, SOL_FOR_FEES), amount: SOL_FOR_FEES };
  }

  async payFromSandboxWallet(to: string, rawAmount: bigint): Promise<{ from: string; txHash: string }> {
    const key = new Uint8Array(randomBytes(32));
    const from = (await createKeyPairSignerFromPrivateKeyBytes(key)).address as string;
    await this.fund(from, rawAmount); // resolves once confirmed
    const txHash = await new SolanaAdapter(this.config.chain, this.config).sendToken(key, to, rawAmount);
    return { from, txHash };
  }

  async mine(slots: number): Promise<number> {
    return Number(await this.facade("sandbox_advanceSlots", [slots]));
  }

  /** One JSON-RPC call to the emulator (its sandbox extensions included). */
  private async facade(method: string, params: unknown[]): Promise<unknown> {
    const res = await fetch(this.config.rpcUrl, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
    });
    const body = (await res.json()) as { result?: unknown; error?: { message: string } };
    if (body.error) throw new Error(`${method}: ${body.error.message}`);
    return body.result;
  }

  async reorg(): Promise<number> {
    throw new DomainError("invalid_request_error", "The emulated solana chain cannot reorganize: it has no forks.", {
      param: "chain",
    });
  }

  async setFrozen(address: string, frozen: boolean): Promise<string | null> {
    try {
      return (await setSolanaFrozen(this.info(), this.mintAuthority(), address, frozen)).signature;
    } catch (err) {
      if (err instanceof NoFreezeAuthorityError) throw tokenCannotFreeze("solana", "its mint has no freeze authority");
      throw err;
    }
  }

  /** The emulator's fee market (sandbox/solana/fee-market.ts): the others' traffic pays this price in every block. */
  async congest(level: CongestLevel): Promise<Congested> {
    if (!("computeUnitPrice" in level)) throw congestWith("compute_unit_price", "solana");
    await this.facade("sandbox_setPriorityFeeFloor", [level.computeUnitPrice.toString()]);
    const head = Number(await this.facade("getSlot", [{ commitment: "confirmed" }]));
    return { baseFeePerGas: null, computeUnitPrice: level.computeUnitPrice, head };
  }

  async dropTransaction(): Promise<never> {
    throw evmChainsOnly("drop", "solana");
  }
}
