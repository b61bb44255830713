import type { Db } from "@/lib/platform/db/client";

/** What every CLI command shares: its flags, its result, and the error that means "wrong usage" (exit 2). */
export class UsageError extends Error {}

/** A repeatable flag (`--file a --file b`) is an array. */
export type Flags = Record<string, string | string[] | boolean | undefined>;

export interface CommandResult {
  json: unknown;
  /** Lines for people (stdout without --json). */
  text: string[];
  /** The process's exit code when the command ran but found a problem (reconcile: 3); 0 otherwise. */
  exitCode?: number;
}

/** What a command may do besides returning its result: report progress as it goes (one line, or one JSON line). */
export interface CommandContext {
  progress(text: string, json: unknown): void;
}

/** A command: from flags to a result. `db` is not to be touched by a command that runs without a database. */
export type Command = (db: Db, flags: Flags, context: CommandContext) => Promise<CommandResult>;

/** A flag that must be given, trimmed. */
export function required(flags: Flags, name: string): string {
  const value = flags[name];
  if (typeof value !== "string" || value.trim() === "") throw new UsageError(`--${name} is required`);
  return value.trim();
}
