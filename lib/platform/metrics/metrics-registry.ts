import { collectDefaultMetrics, Registry } from "prom-client";

let registry: Registry | undefined;

/**
 * This process's registry: its own metrics plus Node's (CPU, memory, event-loop lag, handles). One per
 * process; each process (web, worker) is scraped on its own port. Only the process entry points and what
 * they wire load this: never a Next route, whose bundles would each get a registry of their own.
 */
export function metricsRegistry(): Registry {
  if (!registry) {
    registry = new Registry();
    collectDefaultMetrics({ register: registry });
  }
  return registry;
}
