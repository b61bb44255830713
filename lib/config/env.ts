import { envSchema, type AppConfig } from "./env-schema";

export type { AppConfig } from "./env-schema";
export { CONFIG_VARIABLES } from "./env-schema";

/**
 * Process configuration, read from the environment once. Every knob an operator can turn is in
 * env-schema.ts (per-chain ones in chain-env.ts) and in the README's configuration table, which
 * tests/unit/config-readme.test.ts keeps in step.
 *
 * Nothing else reads process.env for settings. What still touches process.env, and why:
 * - lib/db/bootstrap.ts and scripts/start.ts write DATABASE_URL / EMBEDDED_DATABASE once the database is
 *   up, for their child processes (which inherit the environment), then call resetConfig();
 * - scripts that start child processes pass process.env on to them (spawn-web, spawn-worker,
 *   ensure-build, test), adding NEXT_TELEMETRY_DISABLED;
 * - lib/auth/auth-options.ts writes NEXTAUTH_URL (from PUBLIC_BASE_URL) unless set: next-auth reads it there;
 * - scripts/lib/spawn-web.ts reads WEB_EXEC_ARGV, a harness knob for profiling the spawned web server;
 * - bench/ (BENCH_* knobs) and the test setup under tests/ and e2e/.
 */

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`invalid configuration (see the README's Configuration table):\n  ${problems.join("\n  ")}`);
    this.name = "ConfigError";
  }
}

/** Parses `env`; throws one ConfigError naming every bad variable (`PORT must be a positive integer, got "abc"`). */
export function loadConfig(env: Record<string, string | undefined> = process.env): AppConfig {
  const parsed = envSchema.safeParse(env);
  if (parsed.success) return parsed.data;
  throw new ConfigError(parsed.error.issues.map((issue) => `${issue.path.map(String).join(".")} ${issue.message}`));
}

let cached: AppConfig | undefined;

/** The configuration of this process, parsed on first use. */
export function config(): AppConfig {
  cached ??= loadConfig();
  return cached;
}

/** Forgets the parsed configuration: for code that has just changed process.env (bootstrap, tests). */
export function resetConfig(): void {
  cached = undefined;
}
