import {
  isSolanaError,
  SOLANA_ERROR__JSON_RPC__SERVER_ERROR_LONG_TERM_STORAGE_SLOT_SKIPPED,
  SOLANA_ERROR__JSON_RPC__SERVER_ERROR_SLOT_SKIPPED,
} from "@solana/kit";
import { mapConcurrently } from "@/lib/kernel/map-concurrently";
import type { TokenTransfer } from "../chain-adapter";
import type { SolanaRpc } from "./solana-compute-budget";

const PARALLEL_CALLS = 8;
/** A slot the node has no block for: skipped by its leader, or gone from its ledger (nothing to read there). */
const skipped = (err: unknown) =>
  isSolanaError(err, SOLANA_ERROR__JSON_RPC__SERVER_ERROR_SLOT_SKIPPED) ||
  isSolanaError(err, SOLANA_ERROR__JSON_RPC__SERVER_ERROR_LONG_TERM_STORAGE_SLOT_SKIPPED);

interface TokenBalance {
  accountIndex: number;
  mint: string;
  owner?: string;
  uiTokenAmount: { amount: string };
}
/** getBlock's transaction with `transactionDetails: "accounts"`: its keys and balances, no instructions. */
interface AccountsTransaction {
  meta: { err: unknown; preTokenBalances?: TokenBalance[]; postTokenBalances?: TokenBalance[] } | null;
  transaction: { accountKeys: { pubkey: string }[]; signatures: string[] };
}

/** A transfer found in a block, with the token account it reached (checked against the owner's ATA later). */
export type BlockTransfer = TokenTransfer & { tokenAccount: string };

/**
 * Every USDT credit in slots `from`..`to` (docs/CHAINS.md, "Solana detection"): the slots that have a block
 * (getBlocks), then each block once (getBlock with `transactionDetails: "accounts"`: keys and token balances,
 * no instructions), a few at a time. A successful transaction's credit to an owner is its post − pre token
 * balance of the mint on that account. Its cost follows the chain's traffic, not the number of open payments.
 */
export async function blockTransfers(rpc: SolanaRpc, mint: string, from: number, to: number): Promise<BlockTransfer[]> {
  const slots = await rpc.getBlocks(BigInt(from), BigInt(to), { commitment: "confirmed" }).send();
  const found: BlockTransfer[] = [];
  await mapConcurrently([...slots], PARALLEL_CALLS, async (slot) => {
    const block = await rpc
      .getBlock(slot, {
        commitment: "confirmed",
        encoding: "json",
        transactionDetails: "accounts",
        rewards: false,
        maxSupportedTransactionVersion: 0,
      })
      .send()
      .catch((err: unknown) => {
        if (skipped(err)) return null;
        throw err;
      });
    const transactions = (block?.transactions ?? []) as unknown as AccountsTransaction[];
    transactions.forEach((tx, index) => {
      found.push(...creditsOf(tx, mint, Number(slot), index));
    });
  });
  return found.sort((a, b) => a.blockNumber - b.blockNumber || a.logIndex - b.logIndex);
}

/**
 * A successful transaction's credits of the mint: per token account whose balance rose, its owner, the rise
 * (post − pre) and the payer (the owner of another account of the mint before it).
 */
export function tokenCredits(
  meta: { preTokenBalances?: readonly TokenBalance[] | null; postTokenBalances?: readonly TokenBalance[] | null },
  mint: string,
) {
  const pre = meta.preTokenBalances ?? [];
  const out: { accountIndex: number; owner: string; rawAmount: bigint; from: string | null }[] = [];
  for (const post of meta.postTokenBalances ?? []) {
    if (post.mint !== mint || !post.owner) continue;
    const before = pre.find((p) => p.accountIndex === post.accountIndex);
    const rawAmount = BigInt(post.uiTokenAmount.amount) - BigInt(before?.uiTokenAmount.amount ?? "0");
    if (rawAmount <= 0n) continue;
    const from = pre.find((p) => p.mint === mint && p.owner !== post.owner)?.owner ?? null;
    out.push({ accountIndex: post.accountIndex, owner: post.owner, rawAmount, from });
  }
  return out;
}

function creditsOf(tx: AccountsTransaction, mint: string, slot: number, index: number): BlockTransfer[] {
  if (!tx.meta || tx.meta.err) return [];
  return tokenCredits(tx.meta, mint).map((c) => ({
    txHash: tx.transaction.signatures[0]!,
    // Chain order in the block; the identity (signature, account index) is the polling mode's too, so
    // switching modes never records a deposit twice.
    logIndex: index * 256 + c.accountIndex,
    position: c.accountIndex,
    blockNumber: slot,
    blockHash: `slot:${slot}`,
    from: c.from,
    toKey: c.owner,
    rawAmount: c.rawAmount,
    tokenAccount: tx.transaction.accountKeys[c.accountIndex]!.pubkey,
  }));
}
