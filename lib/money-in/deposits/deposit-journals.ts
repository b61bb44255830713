import { type CustodyJournal, move } from "@/lib/books/custody/custody-types";
import type { ExternalAccount, Journal, MerchantAccount } from "@/lib/books/ledger/post-journal";
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
