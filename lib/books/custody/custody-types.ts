import type { Chain } from "@/lib/chains/chains";
import type { Mode } from "@/lib/kernel/mode";

/** USDT (the chain's token, in its raw units) or the chain's native coin (wei, sun, lamports). */
export type CustodyAsset = "usdt" | "native";

/**
 * The custody ledger's accounts (docs/CUSTODY.md, "The installation's own books").
 * Internal (what the service holds): `deposit_addresses`, `treasury`, `sweeper`, and `in_flight` (signed, not
 * yet confirmed at depth, nor given up). External: `payers` (USDT deposited), `payees` (sent to outside
 * addresses), `fees` (native spent on fees, an expense) and `token_account_rent` (Solana: lamports held as the
 * rent of token accounts, paid when one is created and returned when one is closed), and `funding` (native coin
 * given to the treasury or the sweeper from outside the service, or taken from them: the operator, the sandbox faucet).
 */
export const CUSTODY_ACCOUNTS = [
  "deposit_addresses",
  "treasury",
  "sweeper",
  "in_flight",
  "payers",
  "payees",
  "fees",
  "token_account_rent",
  "funding",
] as const;
export type CustodyAccount = (typeof CUSTODY_ACCOUNTS)[number];

export interface CustodyCause {
  type: "deposit" | "outbound" | "funding";
  id: string;
}

export interface CustodyEntry {
  asset: CustodyAsset;
  account: CustodyAccount;
  /** The service address concerned (internal accounts), null for external ones. */
  address: string | null;
  /** Signed, in the asset's on-chain base units. */
  amount: bigint;
}

export interface CustodyJournal {
  mode: Mode;
  chain: Chain;
  cause: CustodyCause;
  entries: CustodyEntry[];
}

/** What a journal fails to balance by, per asset (empty when every asset sums to zero). */
export function custodyImbalances(entries: Pick<CustodyEntry, "asset" | "amount">[]): Map<CustodyAsset, bigint> {
  const sums = new Map<CustodyAsset, bigint>();
  for (const e of entries) sums.set(e.asset, (sums.get(e.asset) ?? 0n) + e.amount);
  for (const [asset, sum] of sums) if (sum === 0n) sums.delete(asset);
  return sums;
}

/** A movement of `amount` of one asset from one account to another, as two entries (none for zero). */
export function move(
  asset: CustodyAsset,
  amount: bigint,
  from: { account: CustodyAccount; address: string | null },
  to: { account: CustodyAccount; address: string | null },
): CustodyEntry[] {
  if (amount === 0n) return [];
  return [
    { asset, account: from.account, address: from.address, amount: -amount },
    { asset, account: to.account, address: to.address, amount },
  ];
}
