import {
  BaseError,
  ContractFunctionRevertedError,
  ContractFunctionZeroDataError,
  createPublicClient,
  encodeFunctionData,
  hexToBytes,
  http,
  numberToHex,
  parseAbi,
  type Address,
  type Hex,
  type PublicClient,
} from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { DomainError } from "@/lib/kernel/domain-error";
import type { ChainConfig } from "@/lib/chains/chain-config";
import { EvmAdapter } from "@/lib/chains/evm/evm-adapter";
import { sleep } from "@/lib/kernel/sleep";
import { dropPoolTransaction } from "./anvil-pool";
import { congestWith, tokenCannotFreeze } from "../chain-control-errors";
import type { Congested, CongestLevel, SandboxChainOps } from "../sandbox-chain-ops";

/** Anvil's development account 0: deploys the sandbox tokens and owns their mint (sandbox/evm/sandbox-token.ts). */
const TOKEN_OWNER = "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266" as Address;
const MINT_ABI = [
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
] as const;
const FREEZE_ABI = parseAbi([
  "function freeze(address account)",
  "function unfreeze(address account)",
  "function frozen(address account) view returns (bool)",
]);
const GAS_FLOOR = 10n ** 18n;

/** The EVM sandbox chains: anvil's own RPC methods and its unlocked development accounts. */
export class AnvilOps implements SandboxChainOps {
  private readonly client: PublicClient;

  constructor(private readonly config: ChainConfig) {
    this.client = createPublicClient({ transport: http(config.rpcUrl, { timeout: 15_000 }), cacheTime: 0 });
  }

  private rpc<T>(method: string, params: unknown[]): Promise<T> {
    return this.client.request({ method: method as "eth_chainId", params: params as never }) as Promise<T>;
  }

  async fund(address: string, rawAmount: bigint): Promise<string> {
    const balance = BigInt(await this.rpc<Hex>("eth_getBalance", [address, "latest"]));
    if (balance < GAS_FLOOR) await this.rpc("anvil_setBalance", [address, numberToHex(GAS_FLOOR)]);
    return this.sendAsOwner(
      encodeFunctionData({ abi: MINT_ABI, functionName: "mint", args: [address as Address, rawAmount] }),
    );
  }

  async fundNative(address: string): Promise<{ txHash: string; amount: bigint }> {
    // A transfer, not anvil_setBalance: what lands is exactly the amount sent, whatever the role spends meanwhile.
    const owner = BigInt(await this.rpc<Hex>("eth_getBalance", [TOKEN_OWNER, "latest"]));
    if (owner < 1_000n * GAS_FLOOR) await this.rpc("anvil_setBalance", [TOKEN_OWNER, numberToHex(10_000n * GAS_FLOOR)]);
    const txHash = await this.sendAsOwner({ to: address as Address, value: numberToHex(GAS_FLOOR) });
    const receipt = await this.client.waitForTransactionReceipt({
      hash: txHash,
      pollingInterval: 100,
      timeout: 30_000,
    });
    if (receipt.status !== "success") throw new Error(`faucet transfer ${txHash} reverted`);
    return { txHash, amount: GAS_FLOOR };
  }

  /** A transaction from the token's owner, signed by anvil; returns the transaction hash once in the pool. */
  private async sendAsOwner(call: Hex | { to: Address; value: Hex }): Promise<Hex> {
    const tx =
      typeof call === "string"
        ? { from: TOKEN_OWNER, to: this.config.tokenAddress, data: call }
        : { from: TOKEN_OWNER, ...call };
    // The owner is one of anvil's unlocked development accounts, so anvil signs and assigns the nonce; two
    // concurrent calls (from any web instance) can still be given the same one, and the loser is refused
    // as a replacement: it simply asks again for the next nonce.
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.rpc<Hex>("eth_sendTransaction", [tx]);
      } catch (err) {
        if (attempt >= 20 || !/underpriced|nonce too low|already known/i.test(String(err))) throw err;
        await sleep(10 + Math.random() * 40);
      }
    }
  }

  async payFromSandboxWallet(to: string, rawAmount: bigint): Promise<{ from: string; txHash: string }> {
    // A fresh payer per call: no nonce is shared between concurrent simulations.
    const key = generatePrivateKey();
    const payer = privateKeyToAccount(key).address;
    const mint = await this.fund(payer, rawAmount);
    await this.client.waitForTransactionReceipt({ hash: mint as Hex, pollingInterval: 50, timeout: 30_000 });
    const txHash = await new EvmAdapter(this.config.chain, this.config).sendToken(hexToBytes(key), to, rawAmount);
    return { from: payer, txHash };
  }

  async mine(blocks: number): Promise<number> {
    await this.rpc("anvil_mine", [numberToHex(blocks)]);
    return Number(await this.rpc<Hex>("eth_blockNumber", []));
  }

  async reorg(depth: number): Promise<number> {
    const head = Number(await this.rpc<Hex>("eth_blockNumber", []));
    if (depth >= head)
      throw new DomainError("invalid_request_error", `depth must be below the chain's height (${head})`, {
        param: "depth",
      });
    await this.rpc("anvil_reorg", [depth, []]);
    return Number(await this.rpc<Hex>("eth_blockNumber", []));
  }

  async setFrozen(address: string, frozen: boolean): Promise<string | null> {
    if ((await this.isFrozen(address as Address)) === frozen) return null;
    const hash = await this.sendAsOwner(
      encodeFunctionData({ abi: FREEZE_ABI, functionName: frozen ? "freeze" : "unfreeze", args: [address as Address] }),
    );
    const receipt = await this.client.waitForTransactionReceipt({ hash, pollingInterval: 50, timeout: 30_000 });
    if (receipt.status !== "success")
      throw new Error(`the token owner's ${frozen ? "freeze" : "unfreeze"} ${hash} reverted`);
    return hash;
  }

  private async isFrozen(address: Address): Promise<boolean> {
    try {
      return await this.client.readContract({
        address: this.config.tokenAddress as Address,
        abi: FREEZE_ABI,
        functionName: "frozen",
        args: [address],
      });
    } catch (err) {
      const refused = (e: unknown) =>
        e instanceof ContractFunctionRevertedError || e instanceof ContractFunctionZeroDataError;
      if (err instanceof BaseError && err.walk(refused))
        throw tokenCannotFreeze(this.config.chain, "it was deployed before the freeze control existed");
      throw err;
    }
  }

  async congest(level: CongestLevel): Promise<Congested> {
    if (!("baseFeeWei" in level)) throw congestWith("base_fee_gwei", this.config.chain);
    await this.rpc("anvil_setNextBlockBaseFeePerGas", [numberToHex(level.baseFeeWei)]);
    const head = Number(await this.rpc<Hex>("eth_blockNumber", []));
    return { baseFeePerGas: level.baseFeeWei, computeUnitPrice: null, head };
  }

  dropTransaction(txHash: string): Promise<boolean> {
    return dropPoolTransaction((method, params) => this.rpc(method, params), txHash);
  }
}
