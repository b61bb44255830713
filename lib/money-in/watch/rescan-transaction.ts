import { chainConfig } from "@/lib/chains/chain-config";
import type { Chain } from "@/lib/chains/chains";
import { createChainAdapter } from "@/lib/chains/connect/chain-families";
import { requireEnabledChain } from "@/lib/chains/require-enabled-chain";
import { normalizeTxHash } from "@/lib/chains/tx-hash";
import { DomainError, invalidRequest } from "@/lib/kernel/domain-error";
import type { Mode } from "@/lib/kernel/mode";
import { loadDepositViews } from "@/lib/money-in/deposit-addresses/deposit-view";
import { type AddressTransfer, matchAddressTransfers } from "@/lib/money-in/deposit-addresses/match-address-transfers";
import { creditAddressDeposits, recordAddressDeposits } from "@/lib/money-in/deposit-addresses/record-address-deposits";
import { lateWindowMs, type WatchScope } from "@/lib/money-in/deposits/watch-scope";
import type { BlockRef } from "@/lib/chains/chain-adapter";
import type { Db } from "@/lib/platform/db/client";
import { query } from "@/lib/platform/db/query";

/**
 * A rescan of one transaction (POST /v1/deposits/rescan, `cli deposits rescan`): the chain's transfers in it are
 * read again, outside any database transaction (`read`), and those to deposit addresses (of one merchant, or of
 * every merchant for the operator) recorded as the watcher records them, then credited if deep enough, in the
 * caller's transaction (`apply`). A transfer already recorded is not recorded again (its identity is the chain,
 * transaction and position), so a rescan, a second rescan and the watcher together still make one deposit,
 * credited once. `apply` returns the deposits of that transaction the caller may see, new or not.
 */
export async function prepareRescan(
  db: Db,
  scope: { mode: Mode; merchantId: string | null },
  chain: Chain,
  hash: string,
) {
  requireEnabledChain(scope.mode, chain);
  const txHash = normalizeTxHash(chain, hash);
  if (!txHash) throw invalidRequest(`tx_hash is not a transaction id of ${chain}`, "tx_hash");
  const config = await chainConfig(db, scope.mode, chain);
  if (!config) throw new DomainError("chain_disabled", `${chain} is not running in ${scope.mode}`, { param: "chain" });
  const watch: WatchScope = {
    mode: scope.mode,
    chain,
    decimals: config.decimals,
    confirmations: config.confirmations,
    lateWindowMs: lateWindowMs(),
  };
  const adapter = createChainAdapter(config);
  return {
    /** Reads the transaction from the chain and matches it, holding no transaction. */
    read: async (pool: Db) => {
      const transfers = await adapter.transactionTransfers(txHash);
      if (transfers === null)
        throw invalidRequest(
          `${chain} has no mined transaction ${txHash} (yet): rescan it once it is mined`,
          "tx_hash",
        );
      const [head, blocks] = await Promise.all([
        adapter.head(),
        adapter.blocks([...new Set(transfers.map((t) => t.blockNumber))]),
      ]);
      const found = (await matchAddressTransfers(pool, watch, transfers)).filter(
        (t) => scope.merchantId === null || t.merchantId === scope.merchantId,
      );
      const matched = adapter.keepMatched ? await adapter.keepMatched(found) : found;
      if (matched.some((m) => blocks.get(m.blockNumber)?.hash !== m.blockHash))
        throw invalidRequest(`${chain} changed while ${txHash} was read: rescan it again`, "tx_hash");
      return { head, blocks, matched };
    },
    /**
     * Records and credits what was read, in the caller's transaction, behind the watcher only: the chain's cursor
     * row is locked (the watcher's scan and reorg rollback take it too), a transfer in a block the watcher has not
     * reached is left to it (it records it after its own reorganization check), and only deposits whose stored
     * block is the one just read are credited. A block the watcher passed and that a reorganization replaces later
     * moves the cursor's block too, so the watcher's rollback re-examines these deposits as any.
     */
    apply: async (tx: Db, read: { head: number; blocks: Map<number, BlockRef | null>; matched: AddressTransfer[] }) => {
      const [cursor] = await query<{ block_number: string }>(
        tx,
        "select block_number::text from chain_cursors where mode = $1 and chain = $2 for update",
        [scope.mode, chain],
      );
      const scanned = cursor ? Number(cursor.block_number) : -1;
      const behind = read.matched.filter((m) => m.blockNumber <= scanned);
      const recorded = await recordAddressDeposits(tx, watch, behind, read.blocks);
      const rows = await query<{ id: string; block_number: string; block_hash: string }>(
        tx,
        `select id, block_number::text, block_hash from deposits
          where mode = $1 and chain = $2 and tx_hash = $3 and kind = 'address'
            and ($4::text is null or merchant_id = $4) order by position`,
        [scope.mode, chain, txHash, scope.merchantId],
      );
      const asRead = rows.filter((r) => read.blocks.get(Number(r.block_number))?.hash === r.block_hash);
      await creditAddressDeposits(
        tx,
        watch,
        { number: Math.min(read.head, scanned) },
        asRead.map((r) => r.id),
      );
      return {
        txHash,
        recorded,
        leftToWatcher: read.matched.length - behind.length,
        deposits: await loadDepositViews(
          tx,
          rows.map((r) => r.id),
        ),
      };
    },
  };
}
