import path from "node:path";
import { describe, expect, it } from "vitest";
import { configProblems } from "../helpers/config-problems";
import { liveChainConfig, sandboxConfirmations } from "@/lib/chains/chain-config";
import { enabledChains } from "@/lib/chains/chains";
import { ConfigError, loadConfig } from "@/lib/platform/config/env";

const problems = configProblems;

describe("loadConfig", () => {
  it("applies the documented defaults to an empty environment", () => {
    const cfg = loadConfig({});
    expect(cfg).toMatchObject({
      port: 3000,
      host: "127.0.0.1",
      publicBaseUrl: "http://localhost:3000",
      trustProxy: false,
      dataDir: path.resolve(".data"),
      databaseUrl: undefined,
      databasePoolSize: 10,
      embeddedDatabase: false,
      redisKeyPrefix: "usdt:",
      logLevel: "info",
      masterKey: undefined,
      nextAuthSecret: undefined,
      smtpUrl: undefined,
      smtpFrom: undefined,
      solanaPublicRpcUrl: "https://api.mainnet-beta.solana.com",
      sandboxChains: true,
      sandboxBlockTimeS: 1,
      sandboxConfirmations: 4,
      sandboxSweepStrategy: "batch7702",
      latePaymentWindowDays: 7,
      workerRoles: ["jobs", "watchers", "outbound"],
      workerConcurrency: 20,
      jobLockRecoverySeconds: 60,
      outboundReplaceAfterBlocks: 3,
      payoutDenylistFile: undefined,
      payoutLiquidityAlertMinutes: 30,
      outboundMaxResigns: 5,
      outboundCrashAt: undefined,
      liveTreasuryKeyFile: undefined,
      liveSweeperKeyFile: undefined,
      watchChains: null,
      webhookRetryScale: 1,
      webhooksAllowPrivateUrls: false,
    });
    expect(cfg.chains.eth).toEqual({
      rpcUrl: undefined,
      confirmations: undefined,
      usdtContract: undefined,
      usdtDecimals: undefined,
      maxFeeGwei: undefined,
      sweepThreshold: undefined,
      sweepStrategy: undefined,
    });
    expect(enabledChains("live", cfg)).toEqual([]);
  });

  it("treats an empty variable as unset", () => {
    expect(loadConfig({ PORT: "", LOG_LEVEL: "" })).toMatchObject({ port: 3000, logLevel: "info" });
  });

  it("names a bad MASTER_KEY without echoing it", () => {
    const [problem] = problems({ MASTER_KEY: "c2hvcnQ=" });
    expect(problem).toMatch(/^MASTER_KEY must be 32 bytes, base64 or hex/);
    expect(problem).not.toContain("c2hvcnQ=");
  });

  it("accepts a MASTER_KEY of 32 bytes in base64 or hex", () => {
    const bytes = Buffer.alloc(32, 7);
    expect(loadConfig({ MASTER_KEY: bytes.toString("base64") }).masterKey).toEqual(bytes);
    expect(loadConfig({ MASTER_KEY: bytes.toString("hex") }).masterKey).toEqual(bytes);
  });

  it("refuses the crash test hook while live chains are configured", () => {
    expect(problems({ OUTBOUND_CRASH_AT: "after_sign" })).toEqual([]);
    expect(problems({ OUTBOUND_CRASH_AT: "after_sign", ETH_RPC_URL: "http://127.0.0.1:8545" })).toEqual([
      "OUTBOUND_CRASH_AT is a test hook and cannot be set while live chains are configured (ETH_RPC_URL)",
    ]);
    expect(
      problems({
        OUTBOUND_CRASH_AT: "after_broadcast",
        TRON_RPC_URL: "http://t.example",
        SOLANA_RPC_URL: "http://s.example",
      }),
    ).toEqual([
      "OUTBOUND_CRASH_AT is a test hook and cannot be set while " +
        "live chains are configured (TRON_RPC_URL, SOLANA_RPC_URL)",
    ]);
  });

  it("names a bad PORT with the value it got", () => {
    expect(problems({ PORT: "abc" })).toEqual(['PORT must be a positive integer, got "abc"']);
  });

  it("names a bad <CHAIN>_CONFIRMATIONS", () => {
    expect(problems({ BNB_CONFIRMATIONS: "0" })).toEqual(['BNB_CONFIRMATIONS must be a positive integer, got "0"']);
  });

  it("reports every bad variable in one error", () => {
    const err = (() => {
      try {
        loadConfig({ PORT: "-1", LOG_LEVEL: "loud", WATCH_CHAINS: "eth,doge", TRUST_PROXY: "yes" });
      } catch (e) {
        return e as Error;
      }
    })();
    expect(err).toBeInstanceOf(ConfigError);
    expect(err!.message).toContain('PORT must be a positive integer, got "-1"');
    expect(err!.message).toContain('LOG_LEVEL must be one of debug, info, warn, error, got "loud"');
    expect(err!.message).toContain("WATCH_CHAINS must be a comma-separated list of eth, bnb, polygon, tron, solana");
    expect(err!.message).toContain('TRUST_PROXY must be true or false, got "yes"');
  });

  it("parses every chain's variables from the one list of chains", () => {
    const cfg = loadConfig({
      LIVE_SEED_MNEMONIC: "(checked when used)",
      TRON_RPC_URL: "https://tron.example/",
      TRON_CONFIRMATIONS: "25",
      TRON_JSONRPC_URL: "https://tron.example/rpc",
      SOLANA_RPC_URL: "https://solana.example",
      SOLANA_USDT_CONTRACT: "Mint111",
      SOLANA_USDT_DECIMALS: "9",
      SANDBOX_CONFIRMATIONS: "2",
    });
    expect(enabledChains("live", cfg)).toEqual(["tron", "solana"]);
    expect(liveChainConfig("tron", cfg)).toMatchObject({
      rpcUrl: "https://tron.example/",
      extra: { jsonRpcUrl: "https://tron.example/rpc" },
      confirmations: { threshold: 2, required: 25 },
      decimals: 6,
    });
    expect(liveChainConfig("solana", cfg)).toMatchObject({ tokenAddress: "Mint111", decimals: 9 });
    expect(liveChainConfig("eth", cfg)).toBeNull();
    expect(sandboxConfirmations("eth", cfg)).toEqual({ threshold: 2, required: 2 });
  });

  it("does not echo RPC URLs, which often carry provider keys", () => {
    expect(problems({ ETH_RPC_URL: "not a url secret-key" })).toEqual([
      "ETH_RPC_URL must be an absolute URL (http://… or https://…)",
    ]);
  });

  it("takes an smtp(s):// URL for invitation emails and never echoes a bad one (it may carry a password)", () => {
    expect(
      loadConfig({ SMTP_URL: "smtps://u:p@mail.example.com:465", SMTP_FROM: "Pay <no-reply@x.test>" }),
    ).toMatchObject({ smtpUrl: "smtps://u:p@mail.example.com:465", smtpFrom: "Pay <no-reply@x.test>" });
    expect(problems({ SMTP_URL: "http://u:hunter2@mail.example.com" })).toEqual([
      "SMTP_URL must be an smtp:// or smtps:// URL",
    ]);
  });

  it("strips the public base URL's trailing slashes and lists worker roles once each", () => {
    const cfg = loadConfig({ PUBLIC_BASE_URL: "https://pay.example.com//", WORKER_ROLES: "jobs, jobs" });
    expect(cfg.publicBaseUrl).toBe("https://pay.example.com");
    expect(cfg.workerRoles).toEqual(["jobs"]);
  });
});
