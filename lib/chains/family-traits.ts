import type { ChainFamily } from "./chain-registry";
import { CHAIN_FAMILY, type Chain } from "./chains";

/**
 * What a chain family is, for the layers above that act differently by it: static facts, no I/O and no driver
 * loaded (lib/chains/connect/chain-families.ts holds what a family does). A new family is a row here too; code
 * outside lib/chains asks these, never a family's name (`npm run lint` counts the places that still do).
 */
export interface FamilyTraits {
  /** Payouts and deposit sweeps may go many in one contract call (`<CHAIN>_PAYOUT_STRATEGY`, `_SWEEP_STRATEGY`). */
  contractBatches: boolean;
  /**
   * A deposit owner never holds the native coin: the sweeper signs its transactions as their fee payer (and pays
   * any rent). Elsewhere a deposit address is given its own gas (a top-up, or Tron energy lent).
   */
  sweeperPaysDepositFees: boolean;
  /** A deposit's last sweep closes its token account, the account's rent going back to the treasury. */
  closesDepositTokenAccounts: boolean;
  /** Staked native coin lends its resources to other addresses (Tron energy): `stake` intents. */
  lendsStake: boolean;
  /** Transaction hashes are hex, the same in any case (stored lowercase); otherwise they keep their case. */
  hexTxHashes: boolean;
  /** The sandbox chain can be reorganized (the anvils fork; the emulated chains refuse a reorg). */
  sandboxReorgs: boolean;
}

const FAMILY_TRAITS: Record<ChainFamily, FamilyTraits> = {
  evm: {
    contractBatches: true,
    sweeperPaysDepositFees: false,
    closesDepositTokenAccounts: false,
    lendsStake: false,
    hexTxHashes: true,
    sandboxReorgs: true,
  },
  tron: {
    contractBatches: false,
    sweeperPaysDepositFees: false,
    closesDepositTokenAccounts: false,
    lendsStake: true,
    hexTxHashes: true,
    sandboxReorgs: false,
  },
  solana: {
    contractBatches: false,
    sweeperPaysDepositFees: true,
    closesDepositTokenAccounts: true,
    lendsStake: false,
    hexTxHashes: false,
    sandboxReorgs: false,
  },
};

/** The traits of a chain's family. */
export const familyTraits = (chain: Chain): FamilyTraits => FAMILY_TRAITS[CHAIN_FAMILY[chain]];

/** A transaction hash as the service stores and compares it (hex lowercase; base58 as given). */
export const storedTxHash = (chain: Chain, hash: string): string =>
  familyTraits(chain).hexTxHashes ? hash.toLowerCase() : hash;
