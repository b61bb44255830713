import type { ChainConfig } from "../chain-config";
import { CHAIN_SPECS } from "../chain-registry";
import { CHAINS, type Chain } from "../chains";
import { redactText } from "@/lib/platform/log-redaction";
import { sleep } from "@/lib/kernel/sleep";
import { createChainAdapter } from "./chain-families";

/**
 * The network each live chain must be (docs/CUSTODY.md, "Network identity"): an RPC URL that serves another
 * network (a testnet, a fork, the wrong provider endpoint) would have the watcher credit payments that never
 * happened on mainnet and the signer spend keys there, so that chain stops until it serves the right one.
 */
export const LIVE_NETWORK = Object.fromEntries(CHAINS.map((c) => [c, CHAIN_SPECS[c].live.network])) as Record<
  Chain,
  { id: string; name: string }
>;

export type NetworkCheck = { ok: true } | { ok: false; reason: string } | { ok: null; reason: string };

/**
 * `ok: false` when the endpoint provably serves another network, `ok: null` when it could not be asked.
 * Sandbox chains are the service's own (registered with their chain ids) and are not checked.
 */
export async function checkNetworkIdentity(config: ChainConfig): Promise<NetworkCheck> {
  if (config.mode !== "live") return { ok: true };
  const expected = LIVE_NETWORK[config.chain];
  const variable = `${config.chain.toUpperCase()}_RPC_URL`;
  let served: string;
  try {
    served = await createChainAdapter(config).network();
  } catch (err) {
    return { ok: null, reason: `${variable} could not be asked which network it serves: ${shortError(err)}` };
  }
  if (served === expected.id) return { ok: true };
  return {
    ok: false,
    reason:
      `${variable} serves ${config.chain === "solana" ? "genesis hash" : "chain id"} ${served}, ` +
      `not ${config.chain}'s ${expected.name}: its watcher and signer are stopped until it does`,
  };
}

function shortError(err: unknown): string {
  const text = err instanceof Error ? err.message : String(err);
  return redactText(text.split("\n")[0]!).slice(0, 200);
}

/** How often a leading chain's network is asked again (a provider can repoint an endpoint at any time). */
export const NETWORK_CHECK_MS = 60_000;

/**
 * Runs `lead` only while the chain's endpoint serves the right network: checked before leading (an
 * endpoint that cannot be asked is not led either, fail closed) and every `checkMs` while leading, when a
 * proven mismatch aborts `lead`. A refused chain waits `checkMs` before it is tried again, so the error is
 * reported once per check, not once per leadership retry.
 */
export async function leadOnRightNetwork(
  config: ChainConfig,
  signal: AbortSignal,
  lead: (signal: AbortSignal) => Promise<void>,
  opts: { checkMs?: number; onRefused: (reason: string, proven: boolean) => void },
): Promise<void> {
  if (config.mode !== "live") return lead(signal);
  const checkMs = opts.checkMs ?? NETWORK_CHECK_MS;
  const first = await checkNetworkIdentity(config);
  if (first.ok !== true) {
    opts.onRefused(first.reason, first.ok === false);
    await sleep(checkMs, signal);
    return;
  }
  const wrongNetwork = new AbortController();
  const timer = setInterval(() => {
    void checkNetworkIdentity(config).then((check) => {
      if (check.ok === false && !wrongNetwork.signal.aborted) {
        opts.onRefused(check.reason, true);
        wrongNetwork.abort();
      }
    });
  }, checkMs);
  try {
    await lead(AbortSignal.any([signal, wrongNetwork.signal]));
  } finally {
    clearInterval(timer);
  }
  if (wrongNetwork.signal.aborted) await sleep(checkMs, signal);
}
