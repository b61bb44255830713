import { type AppConfig, ConfigError, config } from "@/lib/platform/config/env";

/**
 * The configuration, read first thing by every entry point. A bad variable is the operator's input, not
 * a bug: print what is wrong (no stack trace) and exit 1 before anything starts.
 */
export function startupConfig(): AppConfig {
  try {
    return config();
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    console.error(err.message);
    process.exit(1);
  }
}
