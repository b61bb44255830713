// Operator CLI. Works against the same database whether or not the service runs (see lib/cli/commands.ts).
import { parseArgs } from "node:util";
import { COMMANDS, USAGE, UsageError, WITHOUT_DATABASE, type Flags } from "@/lib/cli/commands";
import { config } from "@/lib/platform/config/env";
import { bootstrapDatabase } from "./lib/bootstrap-database";
import { closeDb, getDb, type Db } from "@/lib/platform/db/client";
import { KeyNotFoundError } from "@/lib/identity/api-keys/rotate-api-key";

const { values, positionals } = parseArgs({
  args: process.argv.slice(2),
  allowPositionals: true,
  strict: false,
  options: {
    json: { type: "boolean" },
    help: { type: "boolean" },
    name: { type: "string" },
    email: { type: "string" },
    merchant: { type: "string" },
    mode: { type: "string" },
    role: { type: "string" },
    scopes: { type: "string" },
    key: { type: "string" },
    chain: { type: "string" },
    payout: { type: "string" },
    address: { type: "string" },
    "review-above": { type: "string" },
    "review-new-destinations": { type: "string" },
    amount: { type: "string" },
    reason: { type: "string" },
    file: { type: "string", multiple: true },
  },
});
const json = values.json === true;
// Commands are two words ("keys create") or three ("payouts policy set").
const three = positionals.slice(0, 3).join(" ");
const name = COMMANDS[three] ? three : positionals.slice(0, 2).join(" ");
const command = COMMANDS[name];

function fail(message: string, code: number): never {
  if (json) process.stdout.write(`${JSON.stringify({ error: { message } })}\n`);
  else console.error(`error: ${message}`);
  process.exit(code);
}

if (values.help || !command) {
  if (values.help) {
    console.log(USAGE);
    process.exit(0);
  }
  if (!json) console.error(USAGE);
  fail(name ? `unknown command "${name}"` : "no command given", 2);
}

let database: Awaited<ReturnType<typeof bootstrapDatabase>> | undefined;
let exitCode = 0;
try {
  const needsDatabase = !WITHOUT_DATABASE.has(name);
  if (needsDatabase) database = await bootstrapDatabase({ dataDir: config().dataDir });
  // A command without a database never touches its `db` argument.
  const result = await command(needsDatabase ? getDb() : (null as unknown as Db), values as Flags);
  process.stdout.write(json ? `${JSON.stringify(result.json)}\n` : `${result.text.join("\n")}\n`);
  exitCode = result.exitCode ?? 0;
} catch (err) {
  const known = err instanceof UsageError || err instanceof KeyNotFoundError;
  const message = err instanceof Error ? err.message : String(err);
  if (json) process.stdout.write(`${JSON.stringify({ error: { message } })}\n`);
  else console.error(`error: ${message}`);
  exitCode = known ? 2 : 1;
} finally {
  await closeDb();
  await database?.stop();
}
process.exit(exitCode);
