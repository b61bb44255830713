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
import { budgetedMessage, readComputeBudget } from "./solana-compute-budget";
import type { BlockRef, ChainAdapter, TokenTransfer, WatchedAddress } from "../chain-adapter";

type Rpc = ReturnType<typeof createSolanaRpc>;
const COMMITMENT = { commitment: "confirmed" } as const;
const ACCOUNTS_PER_CALL = 100; // getMultipleAccounts' limit
const PARALLEL_CALLS = 8;
/** A payer's wallet pays what the market asks (the service's own transactions have SOLANA_MAX_COMPUTE_UNIT_PRICE). */
const WALLET_PRICE_CAP = 2n ** 64n - 1n;

async function mapConcurrently<T>(items: T[], limit: number, fn: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(limit, items.length) }, async () => {
      while (next < items.length) await fn(items[next++]!);
    }),
  );
}

/**
 * Solana, sandbox or live, through any JSON-RPC endpoint (@solana/kit). A deposit address is the derived
 * owner; payments arrive in its associated token account (ATA) for the USDT mint. Detection: one
 * getMultipleAccounts per 100 watched ATAs at `confirmed`; only an account whose balance differs from what
 * is recorded has its signatures fetched, and each new transaction's amount is its pre/post token balance
 * difference for that owner. Slots play the part of blocks; a slot's "hash" is the slot itself (reads at
 * `confirmed` are supermajority-voted and are not rolled back), and 32 slots make a payment `finalized`.
 */
export class SolanaAdapter implements ChainAdapter {
  readonly family = "solana" as const;
  readonly scansAddresses = true;
  private readonly rpc: Rpc;
  private readonly atas = new Map<string, Address>();

  constructor(
    readonly chain: Chain,
    private readonly cfg: { rpcUrl: string; tokenAddress: string; decimals: number },
  ) {
    this.rpc = createSolanaRpc(cfg.rpcUrl);
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

  async transfers(_from: number, to: number, watched: WatchedAddress[] = []): Promise<TokenTransfer[]> {
    const changed: WatchedAddress[] = [];
    const batches: WatchedAddress[][] = [];
    for (let i = 0; i < watched.length; i += ACCOUNTS_PER_CALL) batches.push(watched.slice(i, i + ACCOUNTS_PER_CALL));
    // A few calls in flight at once: the cost is mostly round trips to the node.
    await mapConcurrently(batches, PARALLEL_CALLS, async (batch) => {
      const atas = await Promise.all(batch.map((w) => this.ata(w.key)));
      const { value } = await this.rpc.getMultipleAccounts(atas, { ...COMMITMENT, encoding: "base64" }).send();
      value.forEach((account, j) => {
        // SPL token account layout: mint 0..32, owner 32..64, amount (u64 LE) 64..72.
        const amount = account ? Buffer.from(account.data[0], "base64").readBigUInt64LE(64) : 0n;
        if (amount !== batch[j]!.recordedRaw) changed.push(batch[j]!);
      });
    });
    const found: TokenTransfer[] = [];
    for (const w of changed) found.push(...(await this.newTransfersTo(w, to)));
    return found.sort((a, b) => a.blockNumber - b.blockNumber || a.logIndex - b.logIndex);
  }

  private async newTransfersTo(w: WatchedAddress, upTo: number): Promise<TokenTransfer[]> {
    const ata = await this.ata(w.key);
    // Newest first; page back until a recorded signature shows up (everything older is known).
    const signatures = [];
    for (let before: Signature | undefined; ; ) {
      const page = await this.rpc
        .getSignaturesForAddress(ata, { ...COMMITMENT, limit: 100, ...(before ? { before } : {}) })
        .send();
      signatures.push(...page);
      if (page.length < 100 || page.some((s) => w.recordedTx.has(s.signature))) break;
      before = page[page.length - 1]!.signature;
    }
    const fresh = signatures.filter((s) => s.err === null && Number(s.slot) <= upTo && !w.recordedTx.has(s.signature));
    const out: TokenTransfer[] = [];
    for (const s of fresh) {
      const tx = await this.rpc
        .getTransaction(s.signature, { ...COMMITMENT, encoding: "json", maxSupportedTransactionVersion: 0 })
        .send();
      if (!tx?.meta || tx.meta.err) continue;
      const pre = tx.meta.preTokenBalances ?? [];
      for (const post of tx.meta.postTokenBalances ?? []) {
        if (post.mint !== this.cfg.tokenAddress || post.owner !== w.key) continue;
        const before = pre.find((p) => p.accountIndex === post.accountIndex);
        const delta = BigInt(post.uiTokenAmount.amount) - BigInt(before?.uiTokenAmount.amount ?? "0");
        if (delta <= 0n) continue;
        const payer = pre.find((p) => p.mint === this.cfg.tokenAddress && p.owner !== w.key);
        out.push({
          txHash: s.signature,
          logIndex: post.accountIndex,
          position: post.accountIndex,
          blockNumber: Number(s.slot),
          blockHash: `slot:${Number(s.slot)}`,
          from: payer?.owner ?? null,
          toKey: w.key,
          rawAmount: delta,
        });
      }
    }
    return out;
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
