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

/** A flag that must be given, trimmed. */
export function required(flags: Flags, name: string): string {
  const value = flags[name];
  if (typeof value !== "string" || value.trim() === "") throw new UsageError(`--${name} is required`);
  return value.trim();
}
