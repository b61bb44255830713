import {
  address,
  createKeyPairSignerFromPrivateKeyBytes,
  createSolanaRpc,
  getBase64EncodedWireTransaction,
  getSignatureFromTransaction,
  signTransactionMessageWithSigners,
  type Address,
  type Signature,
} from "@solana/kit";
import {
  findAssociatedTokenPda,
  getCreateAssociatedTokenIdempotentInstruction,
  getTransferCheckedInstruction,
  TOKEN_PROGRAM_ADDRESS,
} from "@solana-program/token";
import type { Chain } from "@/lib/chains/chains";
import type { SolanaDetection } from "@/lib/platform/config/env-schema";
import { accountTransfers } from "./solana-account-transfers";
import { type BlockTransfer, blockTransfers } from "./solana-block-transfers";
import { budgetedMessage, readComputeBudget, type SolanaRpc } from "./solana-compute-budget";
import type { BlockRef, ChainAdapter, TokenTransfer, WatchedAddress } from "../chain-adapter";

const COMMITMENT = { commitment: "confirmed" } as const;
/** A payer's wallet pays what the market asks (the service's own transactions have SOLANA_MAX_COMPUTE_UNIT_PRICE). */
const WALLET_PRICE_CAP = 2n ** 64n - 1n;

/**
 * Solana, sandbox or live, through any JSON-RPC endpoint (@solana/kit). A deposit address is the derived
 * owner; payments arrive in its associated token account (ATA) for the USDT mint. Detection
 * (`SOLANA_DETECTION`): `blocks` reads each new slot's block once (solana-block-transfers.ts), `accounts` polls
 * every watched ATA (solana-account-transfers.ts). Slots play the part of blocks; a slot's "hash" is the slot
 * itself (reads at `confirmed` are supermajority-voted and are not rolled back), and 32 slots make a payment
 * `finalized`.
 */
export class SolanaAdapter implements ChainAdapter {
  readonly family = "solana" as const;
  readonly scansAddresses: boolean;
  private readonly rpc: SolanaRpc;
  private readonly atas = new Map<string, Address>();

  constructor(
    readonly chain: Chain,
    private readonly cfg: {
      rpcUrl: string;
      tokenAddress: string;
      decimals: number;
      solanaDetection?: SolanaDetection | null;
    },
  ) {
    this.rpc = createSolanaRpc(cfg.rpcUrl);
    this.scansAddresses = cfg.solanaDetection === "accounts";
  }

  async network(): Promise<string> {
    return String(await this.rpc.getGenesisHash().send());
  }

  async head(): Promise<number> {
    return Number(await this.rpc.getSlot(COMMITMENT).send());
  }

  async blocks(numbers: number[]): Promise<Map<number, BlockRef | null>> {
    const unique = [...new Set(numbers)];
    const times = await Promise.all(
      unique.map((n) =>
        this.rpc
          .getBlockTime(BigInt(n))
          .send()
          .catch(() => null),
      ),
    );
    return new Map(
      unique.map((n, i) => [
        n,
        { number: n, hash: `slot:${n}`, time: times[i] === null ? new Date() : new Date(Number(times[i]) * 1000) },
      ]),
    );
  }

  async transfers(from: number, to: number, watched: WatchedAddress[] = []): Promise<TokenTransfer[]> {
    if (!this.scansAddresses) return blockTransfers(this.rpc, this.cfg.tokenAddress, from, to);
    return accountTransfers(this.rpc, this.cfg.tokenAddress, (owner) => this.ata(owner), to, watched);
  }

  /** The transaction's slot, then that slot's block as `blocks` detection reads it (whatever SOLANA_DETECTION says). */
  async transactionTransfers(txHash: string): Promise<TokenTransfer[] | null> {
    const tx = await this.rpc
      .getTransaction(txHash as Signature, { ...COMMITMENT, encoding: "json", maxSupportedTransactionVersion: 0 })
      .send();
    if (!tx) return null;
    const slot = Number(tx.slot);
    return (await blockTransfers(this.rpc, this.cfg.tokenAddress, slot, slot)).filter((t) => t.txHash === txHash);
  }

  /**
   * Of the credits matched to deposit addresses, those into the owner's associated token account: the one
   * balances() reads and sweeps empty (another token account of the owner's is not the service's to watch).
   * Derived for these few only: a derivation costs about half a millisecond, too much for every credit of a block.
   */
  async keepMatched<T extends TokenTransfer>(matched: T[]): Promise<T[]> {
    const kept: T[] = [];
    for (const t of matched) {
      const account = (t as Partial<BlockTransfer>).tokenAccount;
      if (account === undefined || account === (await this.ata(t.toKey))) kept.push(t);
    }
    return kept;
  }

  private async ata(owner: string): Promise<Address> {
    let ata = this.atas.get(owner);
    if (!ata) {
      [ata] = await findAssociatedTokenPda({
        owner: address(owner),
        mint: address(this.cfg.tokenAddress),
        tokenProgram: TOKEN_PROGRAM_ADDRESS,
      });
      this.atas.set(owner, ata);
    }
    return ata;
  }

  async balances(owner: string): Promise<{ token: bigint; native: bigint }> {
    const [lamports, account] = await Promise.all([
      this.rpc.getBalance(address(owner), COMMITMENT).send(),
      this.rpc.getAccountInfo(await this.ata(owner), { ...COMMITMENT, encoding: "base64" }).send(),
    ]);
    // SPL token account layout: amount (u64 LE) at 64..72; no account yet means no tokens.
    const token = account.value ? Buffer.from(account.value.data[0], "base64").readBigUInt64LE(64) : 0n;
    return { token, native: lamports.value };
  }

  /** The owner's token account frozen by the mint's freeze authority (SPL state byte 108: 2); none is not frozen. */
  async frozen(owner: string): Promise<boolean> {
    const account = await this.rpc.getAccountInfo(await this.ata(owner), { ...COMMITMENT, encoding: "base64" }).send();
    return account.value ? Buffer.from(account.value.data[0], "base64")[108] === 2 : false;
  }

  /** A wallet's transfer (the sandbox payer's): priced from the recent fees, uncapped, so it lands under congestion. */
  async sendToken(privateKey: Uint8Array, to: string, rawAmount: bigint): Promise<string> {
    const signer = await createKeyPairSignerFromPrivateKeyBytes(privateKey);
    const mint = address(this.cfg.tokenAddress);
    const [source, destination] = await Promise.all([this.ata(signer.address), this.ata(to)]);
    const { value: latest } = await this.rpc.getLatestBlockhash(COMMITMENT).send();
    const instructions = [
      getCreateAssociatedTokenIdempotentInstruction({ payer: signer, ata: destination, owner: address(to), mint }),
      getTransferCheckedInstruction({
        source,
        mint,
        destination,
        authority: signer,
        amount: rawAmount,
        decimals: this.cfg.decimals,
      }),
    ];
    const { unitLimit, unitPrice } = await readComputeBudget(this.rpc, signer, latest, instructions, WALLET_PRICE_CAP);
    const message = budgetedMessage(signer, latest, instructions, unitLimit, unitPrice);
    const signed = await signTransactionMessageWithSigners(message);
    await this.rpc
      .sendTransaction(getBase64EncodedWireTransaction(signed), {
        encoding: "base64",
        preflightCommitment: "confirmed",
      })
      .send();
    return getSignatureFromTransaction(signed) as Signature as string;
  }
}
