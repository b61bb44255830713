import { TronWeb } from "tronweb";
import { tronToEvmHex } from "@/lib/chains/addresses/tron-address";
import type { ChainConfig } from "@/lib/chains/chain-config";
import type { Chain } from "@/lib/chains/chains";
import { EvmAdapter } from "../evm/evm-adapter";
import type { BlockRef, ChainAdapter, TokenTransfer } from "../chain-adapter";

/** Tron's Ethereum-style /jsonrpc: TRON_JSONRPC_URL (live) or the sandbox's, else on the HTTP API's host. */
export function tronJsonRpcUrl(config: Pick<ChainConfig, "rpcUrl" | "extra">): string {
  return config.extra.jsonRpcUrl ?? `${config.rpcUrl.replace(/\/+$/, "")}/jsonrpc`;
}

/** A transfer as /jsonrpc reports it, in Tron's forms: the txID without 0x, the sender as a T-address. */
const asTron = (t: TokenTransfer): TokenTransfer => ({
  ...t,
  txHash: t.txHash.replace(/^0x/, ""),
  from: t.from ? TronWeb.address.fromHex(`41${t.from.slice(2)}`) : null,
});

/**
 * Tron, sandbox or live: reads through Tron's Ethereum-style /jsonrpc (eth_getLogs on the TRC-20
 * contract, blocks by number; hashes there are Tron txIDs and blockIDs), sends with TronWeb (a signed
 * TriggerSmartContract broadcast over the HTTP API). Transaction ids are stored as Tron shows them: 64 hex
 * characters without 0x. Confirmations count blocks; 19 is "solidified".
 */
export class TronAdapter implements ChainAdapter {
  readonly family = "tron" as const;
  private readonly logs: EvmAdapter;

  constructor(
    readonly chain: Chain,
    private readonly cfg: { fullHost: string; jsonRpcUrl: string; tokenAddress: string },
  ) {
    this.logs = new EvmAdapter(chain, {
      rpcUrl: cfg.jsonRpcUrl,
      tokenAddress: tronToEvmHex(cfg.tokenAddress),
      chainId: null,
      batch: false,
    });
  }

  /** Tron's /jsonrpc answers eth_chainId with the genesis block id's last 4 bytes (0x2b6653dc on mainnet). */
  network(): Promise<string> {
    return this.logs.network();
  }

  head(): Promise<number> {
    return this.logs.head();
  }

  blocks(numbers: number[]): Promise<Map<number, BlockRef | null>> {
    return this.logs.blocks(numbers);
  }

  async transfers(from: number, to: number): Promise<TokenTransfer[]> {
    return (await this.logs.transfers(from, to)).map(asTron);
  }

  /** Through /jsonrpc, where a Tron txID is the 0x-hex transaction hash. */
  async transactionTransfers(txHash: string): Promise<TokenTransfer[] | null> {
    const found = await this.logs.transactionTransfers(`0x${txHash.replace(/^0x/, "")}`);
    return found?.map(asTron) ?? null;
  }

  /** Through /jsonrpc, which takes the 0x form of the address and answers the native balance in sun. */
  balances(address: string): Promise<{ token: bigint; native: bigint }> {
    return this.logs.balances(tronToEvmHex(address));
  }

  /** Tether's isBlackListed, through /jsonrpc's eth_call as balances are. */
  frozen(address: string): Promise<boolean> {
    return this.logs.frozen(tronToEvmHex(address));
  }

  async sendToken(privateKey: Uint8Array, to: string, rawAmount: bigint): Promise<string> {
    const tronWeb = new TronWeb({ fullHost: this.cfg.fullHost, privateKey: Buffer.from(privateKey).toString("hex") });
    const owner = tronWeb.address.fromPrivateKey(Buffer.from(privateKey).toString("hex"));
    if (!owner) throw new Error("invalid Tron private key");
    const parameters = [
      { type: "address", value: to },
      { type: "uint256", value: rawAmount.toString() },
    ];
    const { transaction } = await tronWeb.transactionBuilder.triggerSmartContract(
      this.cfg.tokenAddress,
      "transfer(address,uint256)",
      { feeLimit: 100_000_000 },
      parameters,
      owner,
    );
    const sent = await tronWeb.trx.sendRawTransaction(await tronWeb.trx.sign(transaction));
    if (!sent.result) throw new Error(`Tron refused the transfer: ${JSON.stringify(sent)}`);
    return sent.transaction.txID;
  }
}
