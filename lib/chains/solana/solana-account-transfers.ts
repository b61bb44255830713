import type { Address, Signature } from "@solana/kit";
import { mapConcurrently } from "@/lib/kernel/map-concurrently";
import type { TokenTransfer, WatchedAddress } from "../chain-adapter";
import { tokenCredits } from "./solana-block-transfers";
import type { SolanaRpc } from "./solana-compute-budget";

const COMMITMENT = { commitment: "confirmed" } as const;
const ACCOUNTS_PER_CALL = 100; // getMultipleAccounts' limit
const PARALLEL_CALLS = 8;

/**
 * `SOLANA_DETECTION=accounts` (small installations; docs/CHAINS.md, "Solana detection"): one getMultipleAccounts
 * per 100 watched ATAs at `confirmed`; only an account whose balance differs from what is recorded has its
 * signatures fetched, and each new transaction's amount is its pre/post token balance difference for that
 * owner. Its cost grows with every open payment.
 */
export async function accountTransfers(
  rpc: SolanaRpc,
  mint: string,
  ataOf: (owner: string) => Promise<Address>,
  to: number,
  watched: WatchedAddress[],
): Promise<TokenTransfer[]> {
  const changed: WatchedAddress[] = [];
  const batches: WatchedAddress[][] = [];
  for (let i = 0; i < watched.length; i += ACCOUNTS_PER_CALL) batches.push(watched.slice(i, i + ACCOUNTS_PER_CALL));
  // A few calls in flight at once: the cost is mostly round trips to the node.
  await mapConcurrently(batches, PARALLEL_CALLS, async (batch) => {
    const atas = await Promise.all(batch.map((w) => ataOf(w.key)));
    const { value } = await rpc.getMultipleAccounts(atas, { ...COMMITMENT, encoding: "base64" }).send();
    value.forEach((account, j) => {
      // SPL token account layout: mint 0..32, owner 32..64, amount (u64 LE) 64..72.
      const amount = account ? Buffer.from(account.data[0], "base64").readBigUInt64LE(64) : 0n;
      if (amount !== batch[j]!.recordedRaw) changed.push(batch[j]!);
    });
  });
  const found: TokenTransfer[] = [];
  for (const w of changed) found.push(...(await newTransfersTo(rpc, mint, await ataOf(w.key), w, to)));
  return found.sort((a, b) => a.blockNumber - b.blockNumber || a.logIndex - b.logIndex);
}

/** The watched owner's new credits, newest signatures first until a recorded one. */
async function newTransfersTo(
  rpc: SolanaRpc,
  mint: string,
  ata: Address,
  w: WatchedAddress,
  upTo: number,
): Promise<TokenTransfer[]> {
  // Newest first; page back until a recorded signature shows up (everything older is known).
  const signatures = [];
  for (let before: Signature | undefined; ; ) {
    const page = await rpc
      .getSignaturesForAddress(ata, { ...COMMITMENT, limit: 100, ...(before ? { before } : {}) })
      .send();
    signatures.push(...page);
    if (page.length < 100 || page.some((s) => w.recordedTx.has(s.signature))) break;
    before = page[page.length - 1]!.signature;
  }
  const fresh = signatures.filter((s) => s.err === null && Number(s.slot) <= upTo && !w.recordedTx.has(s.signature));
  const out: TokenTransfer[] = [];
  for (const s of fresh) {
    const tx = await rpc
      .getTransaction(s.signature, { ...COMMITMENT, encoding: "json", maxSupportedTransactionVersion: 0 })
      .send();
    if (!tx?.meta || tx.meta.err) continue;
    for (const c of tokenCredits(tx.meta, mint).filter((c) => c.owner === w.key))
      out.push({
        txHash: s.signature,
        logIndex: c.accountIndex,
        position: c.accountIndex,
        blockNumber: Number(s.slot),
        blockHash: `slot:${Number(s.slot)}`,
        from: c.from,
        toKey: w.key,
        rawAmount: c.rawAmount,
      });
  }
  return out;
}
