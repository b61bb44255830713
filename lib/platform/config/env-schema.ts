import os from "node:os";
import path from "node:path";
import { z } from "zod";
import { CHAINS, type Chain } from "@/lib/kernel/chain-ids";
import { OUTBOUND_PURPOSES, type OutboundPurpose } from "@/lib/kernel/outbound-purposes";
import {
  CHAIN_VARIABLES,
  chainEnvSchema,
  type LiveChainEnv,
  PAYOUT_STRATEGIES,
  payoutStrategyOf,
  type PayoutStrategy,
  SWEEP_STRATEGIES,
  type SweepStrategy,
} from "./chain-env";
import {
  absoluteUrl,
  accountXpub,
  flag,
  listenPort,
  listOf,
  masterKeyBytes,
  nonNegativeNumber,
  oneOf,
  positiveInt,
  positiveNumber,
  secretText,
  smtpUrl,
  text,
  usdtAmount,
} from "./env-fields";

export const LOG_LEVELS = ["debug", "info", "warn", "error"] as const;
export const WORKER_ROLES = ["jobs", "watchers", "outbound"] as const;
/** How Tron transfers get their energy (docs/CUSTODY.md, "Tron energy"): burnt TRX, or the treasury's stake. */
export const TRON_ENERGY_STRATEGIES = ["burn", "stake"] as const;
export type TronEnergyStrategy = (typeof TRON_ENERGY_STRATEGIES)[number];
/** How Solana deposits are found: each new slot's block read once, or every watched token account polled. */
export const SOLANA_DETECTIONS = ["blocks", "accounts"] as const;
export type SolanaDetection = (typeof SOLANA_DETECTIONS)[number];

/** The variables every process shares, named as the operator sets them (README, "Configuration"). */
const shape = {
  PORT: positiveInt(3000),
  HOST: text("127.0.0.1"),
  PUBLIC_BASE_URL: absoluteUrl(undefined),
  TRUST_PROXY: flag(false),
  DATA_DIR: text(".data"),
  DATABASE_URL: text(undefined),
  DATABASE_POOL_SIZE: positiveInt(10),
  DATABASE_ACQUIRE_TIMEOUT_MS: positiveInt(5_000),
  DATABASE_STATEMENT_TIMEOUT_MS: positiveInt(15_000),
  DATABASE_PREPARED_STATEMENTS: flag(true),
  // Internal: `npm start` sets it for its children when DATABASE_URL points at its embedded server.
  EMBEDDED_DATABASE: oneOf(["1"], undefined),
  REDIS_URL: text(undefined),
  // May be set to "" (no prefix), so only unset means the default.
  REDIS_KEY_PREFIX: z.string().default("usdt:"),
  LOG_LEVEL: oneOf(LOG_LEVELS, "info"),
  MASTER_KEY: masterKeyBytes(),
  NEXTAUTH_SECRET: secretText(),
  SMTP_URL: smtpUrl(),
  SMTP_FROM: text(undefined),
  LIVE_SEED_MNEMONIC: text(undefined),
  LIVE_SEED_FILE: text(undefined),
  LIVE_TREASURY_KEY_FILE: text(undefined),
  LIVE_SWEEPER_KEY_FILE: text(undefined),
  LIVE_EVM_XPUB: accountXpub(),
  LIVE_TRON_XPUB: accountXpub(),
  TRON_JSONRPC_URL: absoluteUrl(undefined),
  TRON_MAX_FEE_TRX: positiveNumber(50),
  TRON_ENERGY_STRATEGY: oneOf(TRON_ENERGY_STRATEGIES, "burn"),
  SOLANA_MAX_COMPUTE_UNIT_PRICE: positiveInt(1_000_000),
  SOLANA_DETECTION: oneOf(SOLANA_DETECTIONS, "blocks"),
  SOLANA_PUBLIC_RPC_URL: absoluteUrl("https://api.mainnet-beta.solana.com"),
  SANDBOX_CHAINS: oneOf(["on", "off"], "on"),
  SANDBOX_BLOCK_TIME: positiveNumber(1),
  SANDBOX_CONFIRMATIONS: positiveInt(4),
  SANDBOX_SWEEP_THRESHOLD: usdtAmount(1_000_000n),
  SANDBOX_REFUND_MINIMUM: usdtAmount(10_000n),
  SANDBOX_DEPOSIT_MINIMUM: usdtAmount(10_000n),
  SANDBOX_SWEEP_STRATEGY: oneOf(SWEEP_STRATEGIES, "batch7702"),
  SANDBOX_PAYOUT_STRATEGY: oneOf(PAYOUT_STRATEGIES, "single"),
  SANDBOX_TRON_ENERGY_STRATEGY: oneOf(TRON_ENERGY_STRATEGIES, "burn"),
  LATE_PAYMENT_WINDOW_DAYS: nonNegativeNumber(7, "a number of days"),
  WORKER_ROLES: listOf(WORKER_ROLES, [...WORKER_ROLES]),
  WORKER_CONCURRENCY: positiveInt(20),
  JOB_LOCK_RECOVERY_SECONDS: positiveInt(60),
  WATCH_CHAINS: listOf(CHAINS, null),
  PAYOUT_DENYLIST_FILE: text(undefined),
  PAYOUT_LIQUIDITY_ALERT_MINUTES: positiveInt(30),
  OUTBOUND_REPLACE_AFTER_BLOCKS: positiveInt(3),
  OUTBOUND_MAX_RESIGNS: positiveInt(5),
  // Tests only: the worker SIGKILLs itself at this point of sending (lib/money-out/outbound/crash-points.ts).
  OUTBOUND_CRASH_AT: oneOf(["after_sign", "after_broadcast"], undefined),
  OUTBOUND_CRASH_CHAINS: listOf(CHAINS, null),
  OUTBOUND_CRASH_PURPOSES: listOf(OUTBOUND_PURPOSES, null),
  // Tests only: a watcher SIGKILLs itself in a scan that found deposits (lib/money-in/watch/scan-crash-point.ts).
  WATCH_CRASH_AT: oneOf(["before_commit", "after_commit"], undefined),
  WEBHOOK_RETRY_SCALE: positiveNumber(1),
  WEBHOOKS_CA_FILE: text(undefined),
  WEBHOOKS_ALLOW_PRIVATE_URLS: flag(false),
  // Prometheus metrics (docs/OPERATIONS.md#metrics): a listener of its own per process, off unless a port is set.
  METRICS_HOST: text("127.0.0.1"),
  WEB_METRICS_PORT: listenPort(undefined),
  WORKER_METRICS_PORT: listenPort(undefined),
  METRICS_TOKEN: secretText(),
  // The CLI's own state (where `listen` stopped); the XDG default is ~/.local/state.
  XDG_STATE_HOME: text(undefined),
};

/** The configuration of a process, typed and with defaults applied. */
export interface AppConfig {
  port: number;
  host: string;
  /** Without a trailing slash. */
  publicBaseUrl: string;
  trustProxy: boolean;
  /** Absolute. */
  dataDir: string;
  databaseUrl: string | undefined;
  databasePoolSize: number;
  /** How long a request waits for a free pooled connection before it is answered with an error. */
  databaseAcquireTimeoutMs: number;
  /** Postgres statement_timeout of the process pool's connections (not the watchers' or migrations'). */
  databaseStatementTimeoutMs: number;
  /** Statements are prepared once per connection (off behind a pooler that cannot keep them). */
  databasePreparedStatements: boolean;
  /** DATABASE_URL is the embedded server `npm start` runs (so MASTER_KEY may come from DATA_DIR). */
  embeddedDatabase: boolean;
  redisUrl: string | undefined;
  redisKeyPrefix: string;
  logLevel: (typeof LOG_LEVELS)[number];
  masterKey: Buffer | undefined;
  /** Signs and encrypts dashboard sessions; derived from the master key when unset (lib/identity/auth/secret.ts). */
  nextAuthSecret: string | undefined;
  /**
   * Where the dashboard's invitation emails go out (never logged:
   * it may carry a password); unset, links are only shown.
   */
  smtpUrl: string | undefined;
  smtpFrom: string | undefined;
  liveSeedMnemonic: string | undefined;
  liveSeedFile: string | undefined;
  /** Role key files (docs/CUSTODY.md): a role's keys per family instead of the live seed's derivation. */
  liveTreasuryKeyFile: string | undefined;
  liveSweeperKeyFile: string | undefined;
  /** Account-level xpubs the live EVM / Tron deposit addresses derive from without the seed (docs/SECURITY.md). */
  liveXpubs: { evm: string | undefined; tron: string | undefined };
  chains: Record<Chain, LiveChainEnv>;
  tronJsonRpcUrl: string | undefined;
  /** The most TRX (in sun) one Tron transfer may burn: its fee_limit never goes above it. */
  tronMaxFeeSun: bigint;
  /** Per mode: how Tron transfers get their energy (TRON_ENERGY_STRATEGY live, SANDBOX_TRON_ENERGY_STRATEGY). */
  tronEnergyStrategy: Record<"live" | "sandbox", TronEnergyStrategy>;
  /** The highest compute-unit price (micro-lamports) a Solana transaction of the service offers, in both modes. */
  solanaMaxComputeUnitPrice: bigint;
  solanaDetection: SolanaDetection;
  solanaPublicRpcUrl: string;
  sandboxChains: boolean;
  sandboxBlockTimeS: number;
  sandboxConfirmations: number;
  /** USDT base units a sandbox deposit address must hold before it is swept. */
  sandboxSweepThreshold: bigint;
  /** The smallest sandbox refund (USDT base units) on every chain: sandbox fees are not real, only dust is stopped. */
  sandboxRefundMinimum: bigint;
  /** The smallest sandbox transfer to a deposit address that is credited (USDT base units), every chain. */
  sandboxDepositMinimum: bigint;
  /** How sandbox EVM deposit addresses are swept where `<CHAIN>_SWEEP_STRATEGY` is unset. */
  sandboxSweepStrategy: SweepStrategy;
  /** How sandbox EVM payouts are sent where `<CHAIN>_PAYOUT_STRATEGY` is unset. */
  sandboxPayoutStrategy: PayoutStrategy;
  latePaymentWindowDays: number;
  workerRoles: (typeof WORKER_ROLES)[number][];
  workerConcurrency: number;
  jobLockRecoverySeconds: number;
  /** Null: every enabled chain. */
  watchChains: Chain[] | null;
  /** The operator's deny-list file (docs/PAYOUTS.md): one address per line, optionally `<chain> <address>`. */
  payoutDenylistFile: string | undefined;
  /** Minutes a payout may wait for treasury liquidity before the operator is alerted (logged error). */
  payoutLiquidityAlertMinutes: number;
  /** Blocks an outbound EVM transaction may wait unmined before it is replaced with higher fees. */
  outboundReplaceAfterBlocks: number;
  /** Re-signs (after provable expiry) before an outbound transaction is given up as expired. */
  outboundMaxResigns: number;
  outboundCrashAt: "after_sign" | "after_broadcast" | undefined;
  /** The chains whose sending the crash hook stops (null: every chain). */
  outboundCrashChains: Chain[] | null;
  /** Null: every purpose. */
  outboundCrashPurposes: OutboundPurpose[] | null;
  watchCrashAt: "before_commit" | "after_commit" | undefined;
  webhookRetryScale: number;
  webhooksCaFile: string | undefined;
  webhooksAllowPrivateUrls: boolean;
  /**
   * Where the metrics listeners bind; each process's port (unset:
   * no listener), and the bearer token they require if set.
   */
  metrics: { host: string; webPort: number | undefined; workerPort: number | undefined; token: string | undefined };
  /** Where the CLI keeps its state between runs (`listen`'s position): $XDG_STATE_HOME/usdt-payments. */
  cliStateDir: string;
}

/** The whole environment, every variable parsed at once so that all problems are reported together. */
export const envSchema = z
  .object(shape)
  .and(chainEnvSchema)
  .transform(
    (env): AppConfig => ({
      port: env.PORT,
      host: env.HOST,
      publicBaseUrl: (env.PUBLIC_BASE_URL ?? `http://localhost:${env.PORT}`).replace(/\/+$/, ""),
      trustProxy: env.TRUST_PROXY,
      // The hint stops Next's bundler from tracing files for a path only known at run time.
      dataDir: path.resolve(/*turbopackIgnore: true*/ env.DATA_DIR),
      databaseUrl: env.DATABASE_URL,
      databasePoolSize: env.DATABASE_POOL_SIZE,
      databaseAcquireTimeoutMs: env.DATABASE_ACQUIRE_TIMEOUT_MS,
      databaseStatementTimeoutMs: env.DATABASE_STATEMENT_TIMEOUT_MS,
      databasePreparedStatements: env.DATABASE_PREPARED_STATEMENTS,
      embeddedDatabase: env.EMBEDDED_DATABASE === "1",
      redisUrl: env.REDIS_URL,
      redisKeyPrefix: env.REDIS_KEY_PREFIX,
      logLevel: env.LOG_LEVEL,
      masterKey: env.MASTER_KEY,
      nextAuthSecret: env.NEXTAUTH_SECRET,
      smtpUrl: env.SMTP_URL,
      smtpFrom: env.SMTP_FROM,
      liveSeedMnemonic: env.LIVE_SEED_MNEMONIC,
      liveSeedFile: env.LIVE_SEED_FILE,
      liveTreasuryKeyFile: env.LIVE_TREASURY_KEY_FILE,
      liveSweeperKeyFile: env.LIVE_SWEEPER_KEY_FILE,
      liveXpubs: { evm: env.LIVE_EVM_XPUB, tron: env.LIVE_TRON_XPUB },
      chains: env.chains,
      tronJsonRpcUrl: env.TRON_JSONRPC_URL,
      // Configuration, not money: a TRX figure with at most 6 decimals converts to whole sun exactly.
      tronMaxFeeSun: BigInt(Math.round(env.TRON_MAX_FEE_TRX * 1e6)),
      tronEnergyStrategy: { live: env.TRON_ENERGY_STRATEGY, sandbox: env.SANDBOX_TRON_ENERGY_STRATEGY },
      solanaMaxComputeUnitPrice: BigInt(env.SOLANA_MAX_COMPUTE_UNIT_PRICE),
      solanaDetection: env.SOLANA_DETECTION,
      solanaPublicRpcUrl: env.SOLANA_PUBLIC_RPC_URL,
      sandboxChains: env.SANDBOX_CHAINS === "on",
      sandboxBlockTimeS: env.SANDBOX_BLOCK_TIME,
      sandboxConfirmations: env.SANDBOX_CONFIRMATIONS,
      sandboxSweepThreshold: env.SANDBOX_SWEEP_THRESHOLD,
      sandboxRefundMinimum: env.SANDBOX_REFUND_MINIMUM,
      sandboxDepositMinimum: env.SANDBOX_DEPOSIT_MINIMUM,
      sandboxSweepStrategy: env.SANDBOX_SWEEP_STRATEGY,
      sandboxPayoutStrategy: payoutStrategyOf(env.SANDBOX_PAYOUT_STRATEGY),
      latePaymentWindowDays: env.LATE_PAYMENT_WINDOW_DAYS,
      workerRoles: env.WORKER_ROLES,
      workerConcurrency: env.WORKER_CONCURRENCY,
      jobLockRecoverySeconds: env.JOB_LOCK_RECOVERY_SECONDS,
      watchChains: env.WATCH_CHAINS,
      payoutDenylistFile: env.PAYOUT_DENYLIST_FILE,
      payoutLiquidityAlertMinutes: env.PAYOUT_LIQUIDITY_ALERT_MINUTES,
      outboundReplaceAfterBlocks: env.OUTBOUND_REPLACE_AFTER_BLOCKS,
      outboundMaxResigns: env.OUTBOUND_MAX_RESIGNS,
      outboundCrashAt: env.OUTBOUND_CRASH_AT,
      watchCrashAt: env.WATCH_CRASH_AT,
      outboundCrashChains: env.OUTBOUND_CRASH_CHAINS,
      outboundCrashPurposes: env.OUTBOUND_CRASH_PURPOSES,
      webhookRetryScale: env.WEBHOOK_RETRY_SCALE,
      webhooksCaFile: env.WEBHOOKS_CA_FILE,
      webhooksAllowPrivateUrls: env.WEBHOOKS_ALLOW_PRIVATE_URLS,
      metrics: {
        host: env.METRICS_HOST,
        webPort: env.WEB_METRICS_PORT,
        workerPort: env.WORKER_METRICS_PORT,
        token: env.METRICS_TOKEN,
      },
      cliStateDir: path.join(
        env.XDG_STATE_HOME || path.join(/*turbopackIgnore: true*/ os.homedir(), ".local", "state"),
        "usdt-payments",
      ),
    }),
  )
  .superRefine((cfg, ctx) => {
    // The crash hook SIGKILLs the signer on purpose: a test tool that must never reach real money.
    const live = CHAINS.filter((chain) => cfg.chains[chain].rpcUrl !== undefined);
    for (const [hook, set] of [
      ["OUTBOUND_CRASH_AT", cfg.outboundCrashAt],
      ["WATCH_CRASH_AT", cfg.watchCrashAt],
    ] as const)
      if (set && live.length)
        ctx.addIssue({
          code: "custom",
          path: [hook],
          message: `is a test hook and cannot be set while live chains are configured (${live
            .map((chain) => `${chain.toUpperCase()}_RPC_URL`)
            .join(", ")})`,
        });
  });

/** Every variable the schema reads, per-chain ones spelled out (ETH_RPC_URL, …, SOLANA_USDT_DECIMALS). */
export const CONFIG_VARIABLES: readonly string[] = [...Object.keys(shape), ...CHAIN_VARIABLES];
