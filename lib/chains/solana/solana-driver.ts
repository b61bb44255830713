import {
  address,
  type Base64EncodedWireTransaction,
  createKeyPairSignerFromPrivateKeyBytes,
  createSolanaRpc,
  getBase64EncodedWireTransaction,
  getSignatureFromTransaction,
  isSolanaError,
  type KeyPairSigner,
  type Signature,
  signTransactionMessageWithSigners,
  SOLANA_ERROR__INSTRUCTION_ERROR__UNKNOWN,
  SOLANA_ERROR__JSON_RPC__SERVER_ERROR_SEND_TRANSACTION_PREFLIGHT_FAILURE,
  SOLANA_ERROR__TRANSACTION_ERROR__ALREADY_PROCESSED,
  SOLANA_ERROR__TRANSACTION_ERROR__BLOCKHASH_NOT_FOUND,
} from "@solana/kit";
import type { ChainConfig } from "@/lib/chains/chain-config";
import { log } from "@/lib/platform/log";
import { countSignal } from "@/lib/platform/metrics/signals";
import type { OutboundCandidate, OutboundIntent } from "../outbound-intent";
import type { BroadcastOutcome, IntentKeys, Lookup, OutboundDriver, SignedCandidate } from "../outbound-driver";
import { intentInstructions, type SolanaToken } from "./solana-instructions";
import { type Blockhash, budgetedMessage, readComputeBudget, type SolanaRpc } from "./solana-compute-budget";
import { budgetOfSigned } from "./solana-priority-fee";
import { tokenAccountRent } from "./solana-rent";

/** What a candidate is signed with: a recent blockhash, and its compute budget (solana-compute-budget.ts). */
interface Prepared {
  latest: Blockhash;
  unitLimit: number;
  /** Micro-lamports per compute unit. */
  unitPrice: bigint;
}

/** Instruction errors occupy one range of kit's codes (4615000–4615999). */
const isInstructionError = (err: unknown) =>
  isSolanaError(err) &&
  err.context.__code >= SOLANA_ERROR__INSTRUCTION_ERROR__UNKNOWN &&
  err.context.__code < SOLANA_ERROR__INSTRUCTION_ERROR__UNKNOWN + 1000;

const messageOf = (err: unknown) => (err instanceof Error ? err.message : String(err)).split("\n")[0]!.slice(0, 300);

/**
 * Solana: no nonces; a candidate lives on a recent blockhash and can land only while the block height is at
 * most its `lastValidBlockHeight` (stored as `validUntil`). The fee payer is the intent's `feePayer` (the
 * sweeper, for a deposit address, whose owner holds no SOL) or else the signer. A slot stands for a block, its
 * "hash" is `slot:<n>` as SolanaAdapter.blocks() gives it (a `confirmed` slot is never rolled back).
 */
export class SolanaDriver implements OutboundDriver<Prepared> {
  readonly usesNonces = false;
  private readonly rpc: SolanaRpc;
  private readonly token: SolanaToken;
  private readonly maxUnitPrice: bigint;

  constructor(config: ChainConfig) {
    this.rpc = createSolanaRpc(config.rpcUrl);
    this.token = { mint: address(config.tokenAddress), decimals: config.decimals };
    this.maxUnitPrice = config.maxComputeUnitPrice ?? 0n;
  }

  /**
   * A recent blockhash and the compute budget, read afresh for every candidate (a re-sign meets the market
   * as it is then): the limit from a simulation of the very instructions, the price from the recent fees
   * of the accounts it write-locks, capped (the transaction may then wait for the market to calm).
   */
  async prepare(intent: OutboundIntent, _previous: OutboundCandidate | null, keys: IntentKeys): Promise<Prepared> {
    const { signer, feePayer } = await signersOf(keys);
    const instructions = await intentInstructions(intent, this.token, signer, feePayer);
    const { value: latest } = await this.rpc.getLatestBlockhash({ commitment: "confirmed" }).send();
    const budget = await readComputeBudget(this.rpc, feePayer, latest, instructions, this.maxUnitPrice);
    if (budget.capped) {
      countSignal("solana_priority_fee_capped", { purpose: intent.purpose });
      log.warn("solana priority fee capped: the transaction may wait until the fee market calms", {
        id: intent.id,
        wanted: budget.wanted.toString(),
        cap: this.maxUnitPrice.toString(),
      });
    }
    return { latest, unitLimit: budget.unitLimit, unitPrice: budget.unitPrice };
  }

  async sign(intent: OutboundIntent, keys: IntentKeys, prepared: Prepared): Promise<SignedCandidate> {
    const { signer, feePayer } = await signersOf(keys);
    const instructions = await intentInstructions(intent, this.token, signer, feePayer);
    const { latest, unitLimit, unitPrice } = prepared;
    const signed = await signTransactionMessageWithSigners(
      budgetedMessage(feePayer, latest, instructions, unitLimit, unitPrice),
    );
    return {
      // The fee payer's signature: the transaction's id.
      txHash: getSignatureFromTransaction(signed),
      signedTx: getBase64EncodedWireTransaction(signed),
      nonce: null,
      maxFeePerGas: null,
      maxPriorityFeePerGas: null,
      validUntil: latest.lastValidBlockHeight,
    };
  }

  /**
   * With preflight, so a stale blockhash, a missing fee or a bad signature is refused with its reason (without
   * it a node accepts anything and the cluster silently drops it). A transaction that would fail in a program
   * (a frozen recipient, an unexpected balance) is then sent again without preflight: it lands, pays its fee
   * and is recorded as reverted, as an EVM transfer that would revert is (docs/CUSTODY.md, "Solana").
   */
  async broadcast(candidate: OutboundCandidate): Promise<BroadcastOutcome> {
    const wire = candidate.signedTx as Base64EncodedWireTransaction;
    try {
      await this.rpc.sendTransaction(wire, { encoding: "base64", preflightCommitment: "confirmed" }).send();
      return { sent: true };
    } catch (err) {
      if (!isSolanaError(err, SOLANA_ERROR__JSON_RPC__SERVER_ERROR_SEND_TRANSACTION_PREFLIGHT_FAILURE))
        return { sent: false, reason: messageOf(err) };
      const cause = err.cause;
      if (isSolanaError(cause, SOLANA_ERROR__TRANSACTION_ERROR__ALREADY_PROCESSED)) return { sent: true };
      if (isSolanaError(cause, SOLANA_ERROR__TRANSACTION_ERROR__BLOCKHASH_NOT_FOUND))
        return { sent: false, reason: "blockhash not found (expired, or not yet seen by this node)" };
      if (!isInstructionError(cause)) return { sent: false, reason: `preflight: ${messageOf(cause ?? err)}` };
    }
    try {
      await this.rpc.sendTransaction(wire, { encoding: "base64", skipPreflight: true }).send();
      return { sent: true };
    } catch (err) {
      return { sent: false, reason: messageOf(err) };
    }
  }

  async lookup(candidate: OutboundCandidate): Promise<Lookup> {
    const signature = candidate.txHash as Signature;
    const {
      value: [status],
    } = await this.rpc.getSignatureStatuses([signature], { searchTransactionHistory: true }).send();
    if (!status) return { state: "unknown" };
    // `processed` can still be dropped with its fork: only a voted (`confirmed`) slot counts as landed.
    if (status.confirmationStatus !== "confirmed" && status.confirmationStatus !== "finalized")
      return { state: "pending" };
    const tx = await this.rpc
      .getTransaction(signature, { commitment: "confirmed", encoding: "json", maxSupportedTransactionVersion: 0 })
      .send();
    if (!tx?.meta) return { state: "pending" }; // the status is ahead of the node's transaction store
    const slot = Number(tx.slot);
    return {
      state: "landed",
      blockNumber: slot,
      blockHash: `slot:${slot}`,
      success: tx.meta.err === null,
      feeNative: BigInt(tx.meta.fee),
      rent: tokenAccountRent(tx.meta),
      usage: usageOf(candidate, tx.meta.computeUnitsConsumed),
    };
  }

  /**
   * Provably lost: the `finalized` block height is past the candidate's last valid block height (no fork can
   * include it any more) and no node knows its signature.
   */
  async cannotLand(_intent: OutboundIntent, candidate: OutboundCandidate): Promise<boolean> {
    if (candidate.validUntil === null) return false;
    const height = await this.rpc.getBlockHeight({ commitment: "finalized" }).send();
    if (height <= candidate.validUntil) return false;
    return (await this.lookup(candidate)).state === "unknown";
  }
}

async function signersOf(keys: IntentKeys): Promise<{ signer: KeyPairSigner; feePayer: KeyPairSigner }> {
  const signer = await createKeyPairSignerFromPrivateKeyBytes(keys.signer.privateKey);
  const feePayer = keys.feePayer ? await createKeyPairSignerFromPrivateKeyBytes(keys.feePayer.privateKey) : signer;
  return { signer, feePayer };
}

/** The units used (the chain's figure) and the budget it offered: limit and price in micro-lamports per unit. */
function usageOf(candidate: OutboundCandidate, consumed: bigint | number | undefined): Record<string, string> {
  const usage: Record<string, string> = {};
  if (consumed !== undefined) usage.compute_units = String(consumed);
  const { unitLimit, unitPrice } = budgetOfSigned(candidate.signedTx);
  if (unitLimit !== undefined) usage.compute_unit_limit = String(unitLimit);
  if (unitPrice !== undefined) usage.compute_unit_price = unitPrice.toString();
  return usage;
}
