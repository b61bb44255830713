import path from "node:path";

/**
 * Process configuration, read from the environment once. Every knob an operator can turn is here and in
 * the README's configuration table; nothing else reads process.env for settings.
 */
export interface AppConfig {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | undefined;
  publicBaseUrl: string;
  redisUrl: string | undefined;
  trustProxy: boolean;
  logLevel: "debug" | "info" | "warn" | "error";
}

function intFromEnv(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === "") return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value <= 0) throw new Error(`${name} must be a positive integer, got "${raw}"`);
  return value;
}

export function loadConfig(): AppConfig {
  const port = intFromEnv("PORT", 3000);
  const host = process.env.HOST || "127.0.0.1";
  const publicBaseUrl = (process.env.PUBLIC_BASE_URL || `http://localhost:${port}`).replace(/\/+$/, "");
  const level = process.env.LOG_LEVEL ?? "info";
  return {
    port,
    host,
    dataDir: path.resolve(/*turbopackIgnore: true*/ process.env.DATA_DIR || ".data"),
    databaseUrl: process.env.DATABASE_URL || undefined,
    publicBaseUrl,
    redisUrl: process.env.REDIS_URL || undefined,
    trustProxy: process.env.TRUST_PROXY === "true",
    logLevel: (["debug", "info", "warn", "error"].includes(level) ? level : "info") as AppConfig["logLevel"],
  };
}

let cached: AppConfig | undefined;

/** The configuration of this process (memoized; tests that change env call loadConfig directly). */
export function config(): AppConfig {
  cached ??= loadConfig();
  return cached;
}
