import { TronWeb } from "tronweb";
import type { ChainConfig } from "@/lib/chains/chain-config";
import { MAX_FEE_LIMIT_SUN, quoteTokenTransfer, TransferWouldFail } from "@/lib/chains/tron/tron-fees";
import { log } from "@/lib/platform/log";
import { countSignal } from "@/lib/platform/metrics/signals";
import { energyLeft } from "./tron-energy";
import { ACCOUNT_CREATION_SUN, assertTronFunds, BANDWIDTH_ALLOWANCE_SUN, maxTronCost } from "./tron-funds";
import type { OutboundCandidate, OutboundIntent } from "../outbound-intent";
import type { BroadcastOutcome, IntentKeys, Lookup, OutboundDriver, SignedCandidate } from "../outbound-driver";
import { hexText, TronNode, type TronBlock, type TronBroadcastReply, type TronTxInfo } from "./tron-node";

/**
 * How long after its reference block's time a transaction may be included. Long enough that a worker
 * restarting after a crash still sends the bytes it stored, short enough that a transaction no node will take
 * (the signer out of TRX, say) is re-signed and, after OUTBOUND_MAX_RESIGNS, given up within about an hour.
 * java-tron accepts up to 24 h.
 */
export const TRON_EXPIRATION_MS = 10 * 60_000;

interface TronPrepared {
  /** TAPOS reference and expiration, which TronWeb then builds the transaction with locally. */
  blockHeader: { ref_block_bytes: string; ref_block_hash: string; expiration: number; timestamp: number };
  feeLimit: number;
}

/** A VM result other than SUCCESS (REVERT, OUT_OF_ENERGY …); TransferContract has none (DEFAULT). */
const VM_OK = new Set([undefined, "SUCCESS", "DEFAULT"]);

/**
 * Failed on chain: java-tron marks it FAILED, the VM did not succeed, or a TRC-20 `transfer` returned false
 * (32 zero bytes) instead of reverting.
 */
function succeeded(info: TronTxInfo, tokenCall: boolean): boolean {
  if (info.result === "FAILED" || !VM_OK.has(info.receipt?.result)) return false;
  return !(tokenCall && /^0{64}$/.test(info.contractResult?.[0] ?? ""));
}

/** The receipt's resources: energy (all, from stake, burnt as sun) and bandwidth (from stake or free, burnt as sun). */
function tronUsage(info: TronTxInfo): Record<string, string> {
  const r = info.receipt ?? {};
  return {
    energy_total: String(r.energy_usage_total ?? 0),
    energy_staked: String(r.energy_usage ?? 0),
    energy_burnt_sun: String(r.energy_fee ?? 0),
    bandwidth_staked: String(r.net_usage ?? 0),
    bandwidth_burnt_sun: String(r.net_fee ?? 0),
  };
}

/**
 * Tron: TRC-20 `transfer` (TriggerSmartContract), TRX (TransferContract) and energy lent from the treasury's stake
 * (DelegateResourceContract, UnDelegateResourceContract: asset `stake`), built and signed locally by
 * TronWeb on a reference block read before the database transaction. No nonces: a transaction is unique by
 * its txID, and it can no longer land once a solidified block is past its expiration.
 */
export class TronDriver implements OutboundDriver<TronPrepared> {
  readonly usesNonces = false;
  private readonly node: TronNode;
  private readonly tronWeb: TronWeb;
  private solid: { at: number; time: number } | null = null;

  constructor(private readonly config: ChainConfig) {
    this.node = new TronNode(config);
    this.tronWeb = new TronWeb({ fullHost: config.rpcUrl });
  }

  /**
   * The fee limit (a sweep's from its plan, else estimated), then, for the treasury's and the sweeper's transfers,
   * that the signer's TRX less what its transfers on their way may still take (`reservedNative`) covers what this
   * one may burn (tron-funds.ts): otherwise it is not signed and waits. A deposit address holds exactly the TRX
   * its sweep's plan sent it.
   */
  async prepare(
    intent: OutboundIntent,
    _previous: OutboundCandidate | null,
    _keys: IntentKeys,
    reservedNative = 0n,
  ): Promise<TronPrepared> {
    if (intent.asset !== "token" && (intent.rawAmount <= 0n || intent.rawAmount > BigInt(Number.MAX_SAFE_INTEGER)))
      throw new Error(`outbound ${intent.id}: a TRX amount must be 1 to 2^53 - 1 sun`);
    const raw = intent.options.feeLimitSun;
    const quoted = raw === undefined && intent.asset === "token" ? await this.quote(intent) : null;
    const feeLimit =
      raw !== undefined
        ? /^\d{1,20}$/.test(raw)
          ? BigInt(raw)
          : 0n
        : // TRX transfers and (un)delegations run no contract: fee_limit does not apply
          (quoted?.feeLimitSun ?? 0n);
    if (feeLimit < 0n || (raw !== undefined && feeLimit === 0n) || feeLimit > MAX_FEE_LIMIT_SUN)
      throw new Error(`outbound ${intent.id}: feeLimitSun must be 1 to ${MAX_FEE_LIMIT_SUN} sun`);
    if (intent.signer.role !== "deposit")
      await assertTronFunds(this.node, intent.fromAddress, needsSun(intent, feeLimit, quoted), reservedNative);
    // The newest block as TronWeb reads it; the expiration is ours (TronWeb's default is 60 s). The
    // timestamp is the wall clock, as java-tron's builders set it: two equal transfers in one block differ.
    const ref = await this.tronWeb.trx.getCurrentRefBlockParams();
    return {
      blockHeader: { ...ref, expiration: ref.timestamp + TRON_EXPIRATION_MS, timestamp: Date.now() },
      feeLimit: Number(feeLimit),
    };
  }

  /** The most TRX a signed candidate may take from its signer (reserved while it is on its way). */
  maxNativeCost(candidate: OutboundCandidate): bigint {
    return maxTronCost(candidate.signedTx);
  }

  /**
   * fee_limit from the node's energy estimate for this very transfer, capped by TRON_MAX_FEE_TRX. A transfer whose
   * dry run fails is signed at the cap and left to the chain, which records it as failed; a revert burns only the
   * energy used before it. `burnShare`: the part of the energy the signer's own stake does not cover (1 unless the
   * treasury spends its stake).
   */
  private async quote(intent: OutboundIntent): Promise<{ feeLimitSun: bigint; burnShare: [bigint, bigint] }> {
    const cap = this.config.maxFeeLimitSun!;
    try {
      const quote = await quoteTokenTransfer(
        this.node,
        this.config.tokenAddress,
        intent.fromAddress,
        intent.toAddress,
        intent.rawAmount,
        cap,
      );
      if (this.config.tronEnergyStrategy === "stake" && intent.signer.role === "treasury") {
        const left = await this.stakeLeft(intent, quote.energy);
        const burnt = left >= quote.energy ? 0n : quote.energy - left;
        return { feeLimitSun: quote.feeLimitSun, burnShare: [burnt, quote.energy] };
      }
      return { feeLimitSun: quote.feeLimitSun, burnShare: [1n, 1n] };
    } catch (err) {
      if (!(err instanceof TransferWouldFail)) throw err;
      log.warn("a Tron transfer's dry run fails; it is signed at the fee cap", {
        id: intent.id,
        reason: err.reason,
        fee_limit_sun: cap.toString(),
      });
      return { feeLimitSun: cap, burnShare: [1n, 1n] };
    }
  }

  /**
   * The treasury pays its own transfers' energy from its stake: what the stake cannot cover burns, logged and
   * counted.
   */
  private async stakeLeft(intent: OutboundIntent, energy: bigint): Promise<bigint> {
    const left = await energyLeft(this.node, intent.fromAddress);
    if (left >= energy) return left;
    log.warn("the treasury's staked energy is short: this Tron transfer burns TRX for its energy", {
      id: intent.id,
      purpose: intent.purpose,
      energy: energy.toString(),
      energy_left: left.toString(),
    });
    countSignal("tron_energy_burnt_instead", { purpose: intent.purpose });
    return left;
  }

  /** Local only: with the block header given, TronWeb builds the transaction without asking the node. */
  async sign(intent: OutboundIntent, keys: IntentKeys, p: TronPrepared): Promise<SignedCandidate> {
    const builder = this.tronWeb.transactionBuilder;
    const header = { blockHeader: p.blockHeader };
    const amount = Number(intent.rawAmount);
    const unsigned =
      intent.asset === "native"
        ? await builder.sendTrx(intent.toAddress, amount, intent.fromAddress, header)
        : intent.asset === "stake"
          ? intent.purpose === "energy_reclaim"
            ? await builder.undelegateResource(amount, intent.toAddress, "ENERGY", intent.fromAddress, header)
            : await builder.delegateResource(
                amount,
                intent.toAddress,
                "ENERGY",
                intent.fromAddress,
                false,
                undefined,
                header,
              )
          : (
              await builder.triggerSmartContract(
                this.config.tokenAddress,
                "transfer(address,uint256)",
                { feeLimit: p.feeLimit, txLocal: true, blockHeader: p.blockHeader },
                [
                  { type: "address", value: intent.toAddress },
                  { type: "uint256", value: intent.rawAmount.toString() },
                ],
                intent.fromAddress,
              )
            ).transaction;
    const signed = await this.tronWeb.trx.sign(unsigned, Buffer.from(keys.signer.privateKey).toString("hex"));
    return {
      txHash: signed.txID,
      signedTx: JSON.stringify(signed),
      nonce: null,
      maxFeePerGas: null,
      maxPriorityFeePerGas: null,
      validUntil: BigInt(p.blockHeader.expiration),
    };
  }

  async broadcast(candidate: OutboundCandidate): Promise<BroadcastOutcome> {
    try {
      const reply = await this.node.wallet<TronBroadcastReply>("broadcasttransaction", JSON.parse(candidate.signedTx));
      // A node that has the transaction (pending or in a block) answers DUP_TRANSACTION_ERROR: it is sent.
      if (reply.result === true || reply.code === "DUP_TRANSACTION_ERROR") return { sent: true };
      const reason = reply.code ? `${reply.code}: ${hexText(reply.message)}` : (reply.Error ?? JSON.stringify(reply));
      return { sent: false, reason: reason.slice(0, 300) };
    } catch (err) {
      return { sent: false, reason: String(err).slice(0, 300) };
    }
  }

  async lookup(candidate: OutboundCandidate): Promise<Lookup> {
    const info = await this.node.wallet<TronTxInfo>("gettransactioninfobyid", { value: candidate.txHash });
    if (typeof info.blockNumber === "number") {
      // The block hash as /jsonrpc writes it (0x + blockID), the form TronAdapter.blocks() gives the reorg check.
      const receipt = await this.node.rpc<{ blockNumber: string; blockHash: string } | null>(
        "eth_getTransactionReceipt",
        [`0x${candidate.txHash}`],
      );
      // The two views disagree only while the node moves between blocks: look again on the next pass.
      if (!receipt || Number(receipt.blockNumber) !== info.blockNumber) return { state: "pending" };
      const tokenCall = (JSON.parse(candidate.signedTx) as { raw_data: { contract: { type: string }[] } }).raw_data
        .contract[0]?.type;
      return {
        state: "landed",
        blockNumber: info.blockNumber,
        blockHash: receipt.blockHash,
        success: succeeded(info, tokenCall === "TriggerSmartContract"),
        feeNative: BigInt(info.fee ?? 0),
        usage: tronUsage(info),
      };
    }
    const tx = await this.node.wallet<{ txID?: string }>("gettransactionbyid", { value: candidate.txHash });
    return tx.txID ? { state: "pending" } : { state: "unknown" };
  }

  /**
   * Provably lost: a solidified block is past the expiration (every later block's parent is too, and java-tron
   * includes a transaction only while its expiration is after the parent's time) and no block holds it.
   */
  async cannotLand(_intent: OutboundIntent, candidate: OutboundCandidate): Promise<boolean> {
    if (candidate.validUntil === null) return false;
    const solidified = await this.solidifiedTime();
    if (solidified === null || BigInt(solidified) <= candidate.validUntil) return false;
    return (await this.lookup(candidate)).state === "unknown";
  }

  /** The newest solidified block's time, read at most once a block (a full block is large on live Tron). */
  private async solidifiedTime(): Promise<number | null> {
    if (this.solid && Date.now() - this.solid.at < this.config.blockTimeMs) return this.solid.time;
    const block = await this.node.solidity<TronBlock>("getnowblock", {});
    const time = block.block_header?.raw_data.timestamp;
    if (time === undefined) return null;
    this.solid = { at: Date.now(), time };
    return time;
  }
}

/**
 * What a role's transfer may burn: TRX sent (+ a new account's creation), or the fee limit's unstaked share;
 * + bandwidth.
 */
function needsSun(intent: OutboundIntent, feeLimit: bigint, quoted: { burnShare: [bigint, bigint] } | null): bigint {
  if (intent.asset === "native") return intent.rawAmount + ACCOUNT_CREATION_SUN + BANDWIDTH_ALLOWANCE_SUN;
  if (intent.asset === "stake") return BANDWIDTH_ALLOWANCE_SUN;
  const [burnt, of] = quoted?.burnShare ?? [1n, 1n];
  if (of <= 0n) return feeLimit + BANDWIDTH_ALLOWANCE_SUN; // no energy estimate to share out: the whole limit
  return (feeLimit * burnt + of - 1n) / of + BANDWIDTH_ALLOWANCE_SUN;
}
