import { envSchema, type AppConfig } from "./env-schema";

export type { AppConfig } from "./env-schema";
export { CONFIG_VARIABLES } from "./env-schema";

/**
 * Process configuration, read from the environment once. Every knob an operator can turn is in
 * env-schema.ts (per-chain ones in chain-env.ts) and in the README's configuration table, which
 * tests/unit/config-readme.test.ts keeps in step.
 *
 * Nothing else in lib/ reads or writes process.env. What still touches it, and why:
 * - `adoptEmbeddedDatabase` (called by scripts/lib/bootstrap-database.ts and scripts/start.ts) writes
 *   DATABASE_URL and EMBEDDED_DATABASE once the embedded database is up, for child processes (which inherit
 *   the environment);
 * - scripts that start child processes pass process.env on to them (spawn-web, spawn-worker,
 *   ensure-build, test), adding NEXT_TELEMETRY_DISABLED;
 * - `exportNextAuthUrl` (lib/identity/auth/auth-options.ts) writes NEXTAUTH_URL unless set: next-auth reads it there;
 * - scripts/test.ts and scripts/test-quick.ts set ENTRY_BUNDLES (scripts/lib/entry-bundles.ts reads it) for their runs;
 * - scripts/lib/spawn-web.ts reads WEB_EXEC_ARGV, a harness knob for profiling the spawned web server;
 * - next.config.mjs reads USDT_BUILD_SKIPS_TYPECHECK, which the test command's build (ensure-build) sets: Next's
 *   own TypeScript pass is skipped there because `npm run typecheck` covers the whole project;
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

/**
 * The embedded PostgreSQL is up: its URL becomes DATABASE_URL for this process and the children it starts
 * (they inherit the environment), EMBEDDED_DATABASE says the server is our own, and the configuration is
 * read again.
 */
export function adoptEmbeddedDatabase(url: string): void {
  process.env.DATABASE_URL = url;
  process.env.EMBEDDED_DATABASE = "1";
  resetConfig();
}

/** next-auth builds its callback URLs from NEXTAUTH_URL, which it reads itself: `url` unless the operator set it. */
export function exportNextAuthUrl(url: string): void {
  process.env.NEXTAUTH_URL ??= url;
}
