import { randomUUID } from "node:crypto";
import type { Chain } from "@/lib/chains/chains";
import type { WalletRole } from "@/lib/chains/wallets/wallet-roles";
import type { Mode } from "@/lib/kernel/mode";
import { type Db, inTransaction } from "@/lib/platform/db/client";
import { query } from "@/lib/platform/db/query";
import { move } from "./custody-types";
import { postCustody } from "./post-custody";

export interface Funding {
  mode: Mode;
  chain: Chain;
  role: WalletRole;
  address: string;
  /** Signed, in the native coin's base units: positive given to the role, negative taken from it. */
  amount: bigint;
  /** The transaction that moved it, when there is one: a transaction is booked once per address. */
  txHash: string | null;
  source: "faucet" | "operator";
  note?: string | null;
}

/** The transaction was booked already for that address (nothing is written). */
export class FundingAlreadyBooked extends Error {
  constructor(readonly txHash: string) {
    super(`transaction ${txHash} is booked already for that address`);
  }
}

/**
 * Books native coin given to (or taken from) the treasury or the sweeper from outside the service
 * (docs/CUSTODY.md, "Native coin, to the unit"): a custody_fundings row and its journal, funding → role, in one
 * transaction. Reconcile then balances the role's native coin to the unit.
 */
export async function bookFunding(db: Db, funding: Funding): Promise<{ id: string }> {
  if (funding.amount === 0n) throw new Error("a funding of 0 moves nothing");
  const id = `fnd_${randomUUID().replaceAll("-", "")}`;
  return inTransaction(db, async (tx) => {
    const inserted = await query<{ id: string }>(
      tx,
      `insert into custody_fundings (id, mode, chain, role, address, amount, tx_hash, source, note)
       values ($1, $2, $3, $4, $5, $6, $7, $8, $9) on conflict do nothing returning id`,
      [
        id,
        funding.mode,
        funding.chain,
        funding.role,
        funding.address,
        funding.amount.toString(),
        funding.txHash,
        funding.source,
        funding.note ?? null,
      ],
    );
    if (inserted.length === 0) throw new FundingAlreadyBooked(funding.txHash ?? "");
    await postCustody(tx, [
      {
        mode: funding.mode,
        chain: funding.chain,
        cause: { type: "funding", id },
        entries: move(
          "native",
          funding.amount,
          { account: "funding", address: null },
          { account: funding.role, address: funding.address },
        ),
      },
    ]);
    return { id };
  });
}
