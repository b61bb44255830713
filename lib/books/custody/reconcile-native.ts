import type { WalletRole } from "@/lib/chains/wallets/wallet-roles";
import type { RoleNative } from "./custody-books";

export interface RoleNativeReading {
  role: WalletRole;
  address: string;
  /** Its balance on chain, and what it owns beyond it (Tron: staked and unfreezing TRX). */
  balance: bigint;
  staked: bigint;
  books: RoleNative;
  /** What one of its transactions may cost at most (gasNeeded). */
  needed: bigint;
}

/**
 * One role's native coin, chain against books (docs/CUSTODY.md, "Native coin, to the unit"). The books hold every
 * fee, rent, top-up and funding of the role once it is at depth; `settling` is what may have left the chain ahead
 * of them: the fees and rent of its transactions in a block not yet at depth, and at most `needed` for each one
 * signed or sent and not yet seen in a block. With nothing in flight `unmatched` is exactly 0; below
 * `-settling` it is a leak: coins spent from the role outside the service, or a fee booked short.
 */
export function reconcileRoleNative(r: RoleNativeReading) {
  const onChain = r.balance + r.staked;
  const settling = r.books.landed + BigInt(r.books.unlanded) * r.needed;
  const unmatched = onChain - r.books.books;
  return { role: r.role, address: r.address, onChain, staked: r.staked, books: r.books.books, settling, unmatched };
}

export type RoleNativeReconciliation = ReturnType<typeof reconcileRoleNative>;

/** The alert for a role holding less than its books beyond what is settling, or null. */
export function nativeAlert(r: RoleNativeReconciliation, format: (units: bigint) => string, symbol: string) {
  const missing = -(r.unmatched + r.settling);
  return missing > 0n
    ? `native: the ${r.role} holds ${format(missing)} ${symbol} less on chain than the custody books hold`
    : null;
}
