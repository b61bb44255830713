import { InsufficientFundsError, postJournal } from "@/lib/books/ledger/post-journal";
import type { Chain } from "@/lib/chains/chains";
import { formatAmount } from "@/lib/kernel/amount";
import { DomainError } from "@/lib/kernel/domain-error";
import type { Mode } from "@/lib/kernel/mode";
import type { Db } from "@/lib/platform/db/client";
import type { TransferKind } from "./transfer-kind";

/**
 * A new cause's amount moved from `available` into its kind's in-flight account, in the caller's transaction.
 * Not enough available on the chain → 422 insufficient_balance, nothing written (the caller's transaction rolls
 * back). Concurrent causes serialize on the balances row, so they can never overdraw it.
 */
export async function reserveForCause(
  tx: Db,
  purpose: TransferKind<never>["purpose"],
  cause: { id: string; merchantId: string; mode: Mode; chain: Chain; amount: bigint },
): Promise<void> {
  try {
    await postJournal(tx, {
      merchantId: cause.merchantId,
      mode: cause.mode,
      chain: cause.chain,
      cause: { type: purpose, id: cause.id },
      entries: [
        { account: "available", amount: -cause.amount },
        { account: `${purpose}s_in_flight` as const, amount: cause.amount },
      ],
    });
  } catch (err) {
    if (!(err instanceof InsufficientFundsError)) throw err;
    throw new DomainError(
      "insufficient_balance",
      `Insufficient available balance on ${cause.chain} for a ${purpose} of ${formatAmount(cause.amount)} USDT.`,
      { param: "amount" },
    );
  }
}
