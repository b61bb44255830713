import {
  bytesToHex,
  createPublicClient,
  http,
  keccak256,
  numberToHex,
  type Address,
  type Hex,
  type PublicClient,
  type SignedAuthorization,
  parseTransaction,
  zeroAddress,
} from "viem";
import { privateKeyToAccount } from "viem/accounts";
import type { ChainConfig } from "@/lib/chains/chain-config";
import type { OutboundCandidate, OutboundIntent } from "../outbound-intent";
import type { BroadcastOutcome, IntentKeys, Lookup, OutboundDriver, SignedCandidate } from "../outbound-driver";
import { batchAuthorizations, delegationCode } from "./evm-batch";
import { isDelegatedBatcher, payoutBatchGas, readAllowance } from "./payout-batcher";
import { evmCall, fallbackGas } from "./evm-call";
import { bumpedFees, capped, type Fees, marketFees } from "@/lib/chains/evm/evm-fees";

interface EvmPrepared extends Fees {
  chainId: number;
  gas: bigint;
  /** A batched sweep's EIP-7702 authorizations (members not yet delegated): a type-4 transaction. */
  authorizationList?: SignedAuthorization[];
  /**
   * The signer's own EIP-7702 authorization of this address, at the nonce after the transaction's (known only
   * when signing), in the same type-4 transaction: address 0 to clear the treasury's delegation (`undelegate`),
   * or the first PayoutBatcher for a batch of that design from a treasury not yet delegated.
   */
  selfAuthorize?: Address;
}

/** Errors a node gives for bytes it already has, or whose nonce they already used (the lookup decides which). */
const ALREADY_SENT =
  /already known|known transaction|nonce too low|already imported|replacement transaction underpriced/i;

/**
 * Ethereum, BNB Smart Chain, Polygon: EIP-1559 transactions, nonces from the database; a batched sweep is a
 * call of the sweeper contract, type 4 (EIP-7702) when members still need their authorization; a payout batch
 * is the treasury's call of the PayoutBatcher, which spends its allowance.
 */
export class EvmDriver implements OutboundDriver<EvmPrepared> {
  readonly usesNonces = true;
  private readonly client: PublicClient;

  constructor(private readonly config: ChainConfig) {
    this.client = createPublicClient({
      transport: http(config.rpcUrl, { retryCount: 1, timeout: 15_000 }),
      cacheTime: 0,
    });
  }

  async prepare(
    intent: OutboundIntent,
    previous: OutboundCandidate | null,
    keys?: IntentKeys,
  ): Promise<EvmPrepared | null> {
    const chainId = this.config.chainId ?? (await this.client.getChainId());
    const planned = intent.options.evmGas;
    if (planned && !previous)
      return {
        chainId,
        gas: BigInt(planned.limit),
        maxFeePerGas: BigInt(planned.maxFeePerGas),
        maxPriorityFeePerGas: BigInt(planned.maxPriorityFeePerGas),
      };
    const market = await marketFees(this.client);
    let cap = this.config.maxFeeWei!;
    if (planned && intent.signer.role === "deposit") {
      // A deposit address holds only the gas it was topped up with: a replacement cannot offer more.
      const balance = await this.client.getBalance({ address: intent.fromAddress as Address });
      const affordable = balance / BigInt(planned.limit);
      if (affordable < cap) cap = affordable;
    }
    const fees = previous ? bumpedFees(previous, market, cap) : capped(market, cap);
    if (!fees) return null;
    if (planned) return { chainId, gas: BigInt(planned.limit), ...fees };
    if (intent.purpose === "undelegate") {
      // The treasury's authorization to address 0 clears its delegation: a call to itself carrying it.
      const self = await this.selfAuthorization(intent, previous, zeroAddress);
      return (
        self && { chainId, gas: previous ? parseTransaction(previous.signedTx as Hex).gas! : 60_000n, ...fees, ...self }
      );
    }
    const payouts = intent.options.payoutBatch;
    if (payouts && payouts.members.length > 1) {
      const members = payouts.members.length;
      if (previous || isDelegatedBatcher(payouts.contract)) {
        // A replacement keeps its predecessor's gas and authorization; a batch of the delegated design carries the
        // treasury's own until the treasury is delegated.
        const self = await this.selfAuthorization(intent, previous, payouts.contract as Address);
        const gas = previous
          ? parseTransaction(previous.signedTx as Hex).gas!
          : payoutBatchGas(members, self?.selfAuthorize ? 1 : 0);
        return self && { chainId, gas, ...fees, ...self };
      }
      // The PayoutBatcher spends the treasury's allowance: a batch waits for its code and the approval to be mined
      // (a call to an address without code would succeed and pay no one).
      const [code, allowance] = await Promise.all([
        this.client.getCode({ address: payouts.contract as Address, blockTag: "latest" }),
        readAllowance(this.client, this.config.tokenAddress, intent.fromAddress, payouts.contract),
      ]);
      if (!code || allowance < intent.rawAmount) return null;
      return { chainId, gas: payoutBatchGas(members, 0), ...fees };
    }
    const batch = intent.options.batch;
    const authorizationList = batch ? await batchAuthorizations(this.client, chainId, batch, keys?.members) : undefined;
    // A replacement keeps its predecessor's gas limit: estimated now, against a pending state in which the
    // predecessor may already have run (a first transfer to a recipient then looks like a cheaper second one),
    // it could fall short where the replacement really runs, and the payout would revert out of gas.
    if (previous)
      return {
        chainId,
        gas: parseTransaction(previous.signedTx as Hex).gas!,
        ...fees,
        ...(authorizationList?.length ? { authorizationList } : {}),
      };
    let gas = fallbackGas(intent, authorizationList?.length ?? 0);
    try {
      const estimate = await this.client.estimateGas({
        account: intent.fromAddress as Address,
        ...evmCall(this.config, intent),
        ...(authorizationList?.length ? { authorizationList } : {}),
        // Against mined state: some nodes (anvil, Besu) default to `pending`, where a queued transfer to the
        // same recipient already ran and this one looks cheaper than it will be.
        blockTag: "latest",
      });
      // A margin: state can change between estimate and inclusion (a first transfer into an empty balance costs more).
      gas = (estimate * 13n) / 10n;
    } catch {
      /* the fallback */
    }
    return { chainId, gas, ...fees, ...(authorizationList?.length ? { authorizationList } : {}) };
  }

  /**
   * The treasury's own EIP-7702 authorization of `target` (address 0: none) when its code is not that yet; null
   * while it has transactions in flight: geth and reth refuse an authorization from an account with transactions
   * pending, and a node's pool expects the next nonce after a pending one, not the authorization's.
   */
  private async selfAuthorization(
    intent: OutboundIntent,
    previous: OutboundCandidate | null,
    target: Address,
  ): Promise<{ selfAuthorize?: Address } | null> {
    if (previous) {
      // A replacement holds its predecessor's two nonces: it keeps the authorization, whatever the code is now.
      const { authorizationList } = parseTransaction(previous.signedTx as Hex);
      return authorizationList?.length ? { selfAuthorize: target } : {};
    }
    const code = (await this.client.getCode({ address: intent.fromAddress as Address, blockTag: "latest" })) ?? "0x";
    const wanted = target === zeroAddress ? "0x" : delegationCode(target);
    if (code.toLowerCase() === wanted) return {};
    return (await this.inFlight(intent.fromAddress)) ? null : { selfAuthorize: target };
  }

  /** Whether the node holds transactions of `address` not yet mined. */
  private async inFlight(address: string): Promise<boolean> {
    const [mined, pending] = await Promise.all(
      (["latest", "pending"] as const).map((blockTag) =>
        this.client.getTransactionCount({ address: address as Address, blockTag }),
      ),
    );
    return pending! > mined!;
  }

  /** A treasury's own authorization takes the nonce after its transaction's. */
  noncesUsed(p: EvmPrepared): number {
    return p.selfAuthorize ? 2 : 1;
  }

  async sign(intent: OutboundIntent, keys: IntentKeys, p: EvmPrepared, nonce: bigint | null) {
    if (nonce === null) throw new Error("an EVM transaction needs a nonce");
    const account = privateKeyToAccount(bytesToHex(keys.signer.privateKey));
    const fields = {
      chainId: p.chainId,
      nonce: Number(nonce),
      gas: p.gas,
      maxFeePerGas: p.maxFeePerGas,
      maxPriorityFeePerGas: p.maxPriorityFeePerGas,
      ...evmCall(this.config, intent),
    };
    const authorizationList = p.selfAuthorize
      ? [await account.signAuthorization({ chainId: p.chainId, address: p.selfAuthorize, nonce: Number(nonce) + 1 })]
      : p.authorizationList;
    // A type-4 transaction needs at least one authorization; a batch of delegated members is a plain call.
    const signedTx = authorizationList
      ? await account.signTransaction({ type: "eip7702", authorizationList, ...fields })
      : await account.signTransaction({ type: "eip1559", ...fields });
    return {
      txHash: keccak256(signedTx),
      signedTx,
      nonce,
      maxFeePerGas: p.maxFeePerGas,
      maxPriorityFeePerGas: p.maxPriorityFeePerGas,
      validUntil: null,
    } satisfies SignedCandidate;
  }

  async broadcast(candidate: OutboundCandidate): Promise<BroadcastOutcome> {
    try {
      await this.client.request({ method: "eth_sendRawTransaction", params: [candidate.signedTx as Hex] });
      return { sent: true };
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      if (ALREADY_SENT.test(message)) return { sent: true };
      // viem's first line is generic ("Transaction creation failed."); the node's own words are in `details`.
      const details = (err as { details?: unknown }).details;
      return {
        sent: false,
        reason: (typeof details === "string" && details ? details : message).split("\n")[0]!.slice(0, 300),
      };
    }
  }

  async lookup(candidate: OutboundCandidate): Promise<Lookup> {
    const hash = candidate.txHash as Hex;
    const receipt = (await this.client.request({ method: "eth_getTransactionReceipt", params: [hash] })) as {
      blockNumber: Hex;
      blockHash: Hex;
      status: Hex;
      gasUsed: Hex;
      effectiveGasPrice: Hex;
    } | null;
    if (receipt)
      return {
        state: "landed",
        blockNumber: Number(receipt.blockNumber),
        blockHash: receipt.blockHash,
        success: receipt.status === "0x1",
        feeNative: BigInt(receipt.gasUsed) * BigInt(receipt.effectiveGasPrice),
        usage: {
          gas_used: BigInt(receipt.gasUsed).toString(),
          gas_price: BigInt(receipt.effectiveGasPrice).toString(),
        },
      };
    const pending = await this.client.request({ method: "eth_getTransactionByHash", params: [hash] });
    return pending ? { state: "pending" } : { state: "unknown" };
  }

  /**
   * Provably lost: the signer's count at the confirmed depth is past the nonce, and this candidate is not what used it.
   */
  async cannotLand(intent: OutboundIntent, candidate: OutboundCandidate, confirmedHead: number): Promise<boolean> {
    if (candidate.nonce === null) return false;
    return (await this.chainNonce(intent.fromAddress, confirmedHead)) > candidate.nonce;
  }

  async chainNonce(address: string, block: number | "latest"): Promise<bigint> {
    const tag = block === "latest" ? "latest" : numberToHex(block);
    return BigInt(await this.client.request({ method: "eth_getTransactionCount", params: [address as Address, tag] }));
  }
}
