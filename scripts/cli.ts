// Operator CLI. Works against the same database whether or not the service runs (see lib/cli/commands.ts);
// `trigger` and `listen` work against the running service's /v1 API instead. Parsing and --help:
// lib/cli/cli-program.ts.
import { type Command, type CommandResult, UsageError } from "@/lib/cli/cli-flags";
import { parseCommandLine } from "@/lib/cli/cli-program";
import { SPECS } from "@/lib/cli/cli-specs";
import { config } from "@/lib/platform/config/env";
import type { Db } from "@/lib/platform/db/client";

const argv = process.argv.slice(2);
// Known before parsing, so that a refused command line is answered in JSON too.
const json = argv.includes("--json");

/** Data on stdout: lines for people, or with --json one JSON document per line. */
function print(text: string[], data: unknown) {
  process.stdout.write(json ? `${JSON.stringify(data)}\n` : `${text.join("\n")}\n`);
}

/** Errors: `error: …` on stderr for people; with --json, `{"error": {"message"}}` on stdout. */
function printError(message: string) {
  if (json) process.stdout.write(`${JSON.stringify({ error: { message } })}\n`);
  else console.error(`error: ${message}`);
}

const line = await parseCommandLine(argv, SPECS);
if (line.kind === "exit") {
  if (line.error) printError(line.error);
  process.exit(line.code);
}
// The handlers load the domain (~2 s): only once the command line is known to run something, and not for
// trigger and listen, which only speak HTTP. Both kinds of usage error exit 2.
const httpCommands: Record<string, () => Promise<Record<string, Command>>> = {
  trigger: async () => (await import("@/lib/cli/trigger-command")).TRIGGER_COMMANDS,
  listen: async () => (await import("@/lib/cli/listen-command")).LISTEN_COMMANDS,
};
const { COMMANDS, usageErrors } = httpCommands[line.name]
  ? { COMMANDS: await httpCommands[line.name]!(), usageErrors: [UsageError] }
  : {
      COMMANDS: (await import("@/lib/cli/commands")).COMMANDS,
      usageErrors: [UsageError, (await import("@/lib/identity/api-keys/rotate-api-key")).KeyNotFoundError],
    };
const command = COMMANDS[line.name];
if (!command) throw new Error(`no handler for the command "${line.name}"`);

// A command without a database never touches its `db` argument, nor loads the database's modules.
const databases = line.spec.withoutDatabase
  ? undefined
  : { ...(await import("./lib/bootstrap-database")), ...(await import("@/lib/platform/db/client")) };
let database: { stop(): Promise<void> } | undefined;
let exitCode = 0;
try {
  if (databases) database = await databases.bootstrapDatabase({ dataDir: config().dataDir });
  const db = databases ? databases.getDb() : (null as unknown as Db);
  const result: CommandResult = await command(db, line.flags, { progress: (text, data) => print([text], data) });
  print(result.text, result.json);
  exitCode = result.exitCode ?? 0;
} catch (err) {
  const known = usageErrors.some((kind) => err instanceof kind);
  printError(err instanceof Error ? err.message : String(err));
  exitCode = known ? 2 : 1;
} finally {
  await databases?.closeDb();
  await database?.stop();
}
process.exit(exitCode);
