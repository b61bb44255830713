import { type CustodyJournal, move } from "@/lib/books/custody/custody-types";
import { postCustody } from "@/lib/books/custody/post-custody";
import {
  type ExternalAccount,
  type Journal,
  type MerchantAccount,
  postJournals,
} from "@/lib/books/ledger/post-journal";
import type { Db } from "@/lib/platform/db/client";
import type { WatchScope } from "./watch-scope";

type Account = MerchantAccount | ExternalAccount;

/**
 * One journal per movement, each moving its amount (USDT base units) from one account to another on the
 * scope's chain: deposits reserve (chain_deposits → reserved), credits (reserved → available), reversals
 * after a reorg (reserved → chain_deposits). Zero amounts (dust below 10^-6 USDT) move nothing.
 */
export function movementJournals(
  scope: Pick<WatchScope, "mode" | "chain">,
  moves: { merchantId: string; cause: Journal["cause"]; units: bigint }[],
  from: Account,
  to: Account,
): Journal[] {
  return moves
    .filter((m) => m.units > 0n)
    .map((m) => ({
      merchantId: m.merchantId,
      mode: scope.mode,
      chain: scope.chain,
      cause: m.cause,
      entries: [
        { account: to, amount: m.units },
        { account: from, amount: -m.units },
      ],
    }));
}

/**
 * The custody side of deposits (docs/CUSTODY.md, "The installation's own books"), one journal per deposit in
 * the token's raw units: recorded, payers → deposit_addresses; orphaned or reversed by a reorganization, back.
 * Posted in the same transaction as the merchant journals above.
 */
export function custodyDepositJournals(
  scope: Pick<WatchScope, "mode" | "chain">,
  deposits: { id: string; toAddress: string; rawAmount: bigint }[],
  direction: "recorded" | "reversed",
): CustodyJournal[] {
  return deposits.map((d) => {
    const address = { account: "deposit_addresses" as const, address: d.toAddress };
    const payers = { account: "payers" as const, address: null };
    return {
      mode: scope.mode,
      chain: scope.chain,
      cause: { type: "deposit", id: d.id },
      entries:
        direction === "recorded"
          ? move("usdt", d.rawAmount, payers, address)
          : move("usdt", d.rawAmount, address, payers),
    };
  });
}

/** A deposit row as the writers get it back from their statement. */
export interface DepositMoveRow {
  id: string;
  /** `ignored` (dust): moves nothing of the merchant's, only custody. */
  status?: string;
  merchant_id: string;
  amount_units: string;
  raw_amount: string;
  to_address: string;
}

/**
 * Posts what recording or orphaning deposits moves, in the caller's transaction: each deposit's amount between
 * the merchant's two accounts of the lifecycle's `ledger` (not dust's), and its raw amount in custody (payers ⇄
 * its address).
 */
export async function postDepositMoves(
  tx: Db,
  scope: Pick<WatchScope, "mode" | "chain">,
  rows: DepositMoveRow[],
  ledger: { from: Account; to: Account },
  custody: "recorded" | "reversed",
): Promise<void> {
  const moves = rows
    .filter((d) => d.status !== "ignored")
    .map((d) => ({
      merchantId: d.merchant_id,
      cause: { type: "deposit" as const, id: d.id },
      units: BigInt(d.amount_units),
    }));
  await postJournals(tx, movementJournals(scope, moves, ledger.from, ledger.to));
  const onChain = rows.map((d) => ({ id: d.id, toAddress: d.to_address, rawAmount: BigInt(d.raw_amount) }));
  await postCustody(tx, custodyDepositJournals(scope, onChain, custody));
}
