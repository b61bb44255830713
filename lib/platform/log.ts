import { type AppConfig, config } from "@/lib/platform/config/env";
import { redactText, redactValue } from "@/lib/platform/log-redaction";

/**
 * Minimal structured logger: one JSON line per entry on stderr. Callers pass facts, never secrets; as a
 * second line of defence every line goes through lib/platform/log-redaction.ts (secret-named keys, URL credentials).
 */
type Level = AppConfig["logLevel"];
const ORDER: Record<Level, number> = { debug: 10, info: 20, warn: 30, error: 40 };

function redact(fields: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(fields)) out[k] = redactValue(k, v);
  return out;
}

function write(level: Level, msg: string, fields: Record<string, unknown> = {}) {
  if (ORDER[level] < ORDER[config().logLevel]) return;
  process.stderr.write(
    `${JSON.stringify({ time: new Date().toISOString(), level, msg: redactText(msg), ...redact(fields) })}\n`,
  );
}

export const log = {
  debug: (msg: string, fields?: Record<string, unknown>) => write("debug", msg, fields),
  info: (msg: string, fields?: Record<string, unknown>) => write("info", msg, fields),
  warn: (msg: string, fields?: Record<string, unknown>) => write("warn", msg, fields),
  error: (msg: string, fields?: Record<string, unknown>) => write("error", msg, fields),
};
