import { familyTraits } from "@/lib/chains/family-traits";
import type { ChainConfig } from "@/lib/chains/chain-config";
import { createChainAdapter } from "@/lib/chains/connect/chain-families";
import { config as appConfig } from "@/lib/platform/config/env";
import type { Db } from "@/lib/platform/db/client";
import { log } from "@/lib/platform/log";
import { backoffDelay } from "@/lib/kernel/backoff";
import { sleep } from "@/lib/kernel/sleep";
import { depositKey, roleKey } from "@/lib/chains/wallets/role-keys";
import { fundSandboxRoles, type SandboxFunding } from "@/lib/chains/sandbox/fund-sandbox-roles";
import { registerWalletRoles } from "@/lib/chains/wallets/register-wallet-roles";
import { bookFunding } from "@/lib/books/custody/book-funding";

const SANDBOX_FUNDING_EVERY_MS = 5_000;
import { createOutboundDriver } from "@/lib/chains/connect/chain-families";
import type { OutboundRow } from "./outbound-row";
import { trackOutbound, type OutboundEngine } from "./track-outbound";

/** The engine of one (mode, chain): its driver, and the keys of the service's own signers. */
export function outboundEngine(db: Db, config: ChainConfig): OutboundEngine {
  const driver = createOutboundDriver(config);
  const cfg = appConfig();
  return {
    config,
    adapter: createChainAdapter(config),
    driver,
    keysOf: async (intent: OutboundRow) => {
      const signer =
        intent.signer.role === "deposit"
          ? await depositKey(db, config.mode, config.chain, intent.signer.index)
          : await roleKey(db, config.mode, config.chain, intent.signer.role);
      // Solana: a deposit owner never holds SOL; the sweeper pays its transactions' fees.
      const feePayer =
        familyTraits(config.chain).sweeperPaysDepositFees && intent.signer.role === "deposit"
          ? await roleKey(db, config.mode, config.chain, "sweeper")
          : null;
      // EVM batched sweeps: the members' keys sign their EIP-7702 authorizations (derived here, never stored).
      const members = intent.options.batch
        ? await Promise.all(intent.options.batch.members.map((m) => depositKey(db, config.mode, config.chain, m.index)))
        : undefined;
      return { signer, feePayer, members };
    },
    replaceAfterBlocks: cfg.outboundReplaceAfterBlocks,
    maxResigns: cfg.outboundMaxResigns,
  };
}

/**
 * The leader's loop for one (mode, chain): records the role addresses (and, in sandbox, keeps their gas up
 * from the local faucet), then tracks the journal every half block (at least 500 ms: a pass is database reads and RPC
 * calls, paid per chain and per worker; at most 2 s) until `signal` aborts. A failing pass backs off; after several
 * in a row the loop returns so the caller reloads the chain's configuration.
 */
export async function runOutbound(db: Db, config: ChainConfig, signal: AbortSignal): Promise<void> {
  const engine = outboundEngine(db, config);
  const roles = await registerWalletRoles(db, config);
  const pollMs = Math.min(2_000, Math.max(500, Math.round(config.blockTimeMs / 2)));
  let failures = 0;
  let funded = 0;
  let funding: Promise<void> | null = null;
  const booked = (f: SandboxFunding) =>
    bookFunding(db, { ...f, mode: config.mode, chain: config.chain, source: "faucet" });
  try {
    while (!signal.aborted) {
      // Sandbox: the faucet keeps the roles' gas up (checked every few seconds; live operators fund their own),
      // beside the passes: a transfer waits for its block, the journal does not wait for it.
      if (config.mode === "sandbox" && !funding && Date.now() - funded > SANDBOX_FUNDING_EVERY_MS) {
        funded = Date.now();
        funding = fundSandboxRoles(config, roles, booked)
          .catch((err: unknown) =>
            log.warn("could not fund the sandbox roles", { chain: config.chain, error: String(err) }),
          )
          .finally(() => {
            funding = null;
          });
      }
      if (await outboundPass(db, engine, config, signal, pollMs, failures + 1)) failures = 0;
      else if (++failures >= 5) return;
    }
  } finally {
    await funding; // a landed faucet transfer is booked before the leader lets go
  }
}

/**
 * One pass of the journal, then its pause; a failing pass (the `failures`th in a row) is logged and backs off
 * instead. True when the pass succeeded.
 */
async function outboundPass(
  db: Db,
  engine: OutboundEngine,
  config: ChainConfig,
  signal: AbortSignal,
  pollMs: number,
  failures: number,
): Promise<boolean> {
  try {
    await trackOutbound(db, engine);
    await sleep(pollMs, signal);
    return true;
  } catch (err) {
    log.warn("outbound pass failed; backing off", {
      mode: config.mode,
      chain: config.chain,
      failures,
      error: String(err),
    });
    if (failures < 5) await sleep(backoffDelay(failures, { baseMs: 500, maxMs: 30_000 }), signal);
    return false;
  }
}
