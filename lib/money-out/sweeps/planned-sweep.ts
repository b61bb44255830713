/** One deposit address in a run's sweeps (plan-sweeps.ts, plan-batch-sweeps.ts). */
export interface PlannedSweep {
  address: string;
  raw: bigint;
  /** The sweep's intent: the address's own, or the batch it is a member of (`sweep_batch`). */
  sweepId: string;
  topupId: string | null;
  /** Tron with TRON_ENERGY_STRATEGY=stake: the treasury's energy lent to the address, and its reclaim. */
  delegateId?: string;
  reclaimId?: string;
}
