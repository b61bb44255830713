/**
 * What domain code counts, without knowing how it is exported: a process that serves metrics installs a
 * sink (the worker: worker/service-metrics.ts); elsewhere (a Next route, the CLI) counting is a no-op. So
 * prom-client stays out of the modules that route bundles share.
 */
export type Signal =
  | "webhook_attempts"
  | "tron_energy_burnt_instead"
  | "frozen_address_found"
  | "solana_priority_fee_capped";

type Sink = (signal: Signal, labels: Record<string, string>, by: number) => void;

let sink: Sink | null = null;

export function installSignalSink(next: Sink | null): void {
  sink = next;
}

export function countSignal(signal: Signal, labels: Record<string, string>, by = 1): void {
  sink?.(signal, labels, by);
}
