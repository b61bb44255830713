import { Command, CommanderError, Option } from "commander";
import type { Flags } from "./cli-flags";
import type { CommandSpec, OptionSpec } from "./command-specs";

/** How the README runs the CLI: the name --help shows in its usage lines. */
export const PROGRAM = "npm run --silent cli --";

/** What the command line asks for: a command to run with its flags, or an exit (help shown, or refused). */
export type CommandLine =
  | { kind: "run"; name: string; spec: CommandSpec; flags: Flags }
  | { kind: "exit"; code: number; error?: string };

const GROUPS: Record<string, string> = {
  merchants: "merchants and their first keys",
  keys: "API keys",
  users: "dashboard users",
  balances: "merchants' balances",
  ledger: "the merchants' books",
  reorgs: "deep reorganizations",
  wallets: "the live seed",
  treasury: "the service's own wallets",
  sweeps: "sweeps of deposit addresses into the treasury",
  payouts: "payout review",
  "payouts policy": "a merchant's payout review policy",
  denylist: "addresses payouts may not go to",
};

const longName = (flags: string) => /--([a-z0-9-]+)/.exec(flags)![1]!;

function toOption(spec: OptionSpec): Option {
  const option = new Option(spec.flags, spec.required ? `${spec.description} (required)` : spec.description);
  if (spec.repeatable) option.argParser((value: string, earlier: string[] | undefined) => [...(earlier ?? []), value]);
  if (spec.env) option.env(spec.env);
  return option;
}

/** The flags as the handlers read them: by their long names (`review-above`), positionals by their names. */
function flagsOf(command: Command, spec: CommandSpec): Flags {
  const values = command.opts();
  const flags: Flags = {};
  for (const option of command.options) {
    const value = values[option.attributeName()];
    if (value !== undefined && option.long) flags[option.long.slice(2)] = value;
  }
  (spec.args ?? []).forEach((arg, i) => {
    flags[arg.name] = command.processedArgs[i] as string;
  });
  return flags;
}

/** The first required flag that is absent or blank, as the message that refuses it. */
function missingFlag(spec: CommandSpec, flags: Flags): string | undefined {
  for (const option of spec.options ?? []) {
    if (!option.required) continue;
    const name = longName(option.flags);
    const given = [flags[name] ?? []].flat().some((v) => typeof v === "string" && v.trim() !== "");
    if (!given) return `--${name} is required${option.env ? ` (or set ${option.env})` : ""}: ${option.description}`;
  }
  return undefined;
}

function buildProgram(specs: Record<string, CommandSpec>, chosen: (line: CommandLine) => void): Command {
  const program = new Command()
    .name(PROGRAM)
    .description("The operator's commands, against the service's database (and, for trigger, its /v1 API).")
    .option("--json", "print JSON instead of lines for people: one document per line")
    // Errors are printed by the caller, as a line or as a JSON document; commander only reports them.
    .exitOverride()
    .configureOutput({ outputError: () => {} })
    .configureHelp({ showGlobalOptions: true })
    .addHelpText("after", `\nEach command's flags: ${PROGRAM} <command> --help`);
  const groups = new Map<string, Command>();
  const parentOf = (words: string[]): Command => {
    let parent = program;
    for (let i = 0; i < words.length - 1; i++) {
      const path = words.slice(0, i + 1).join(" ");
      let group = groups.get(path);
      if (!group) {
        group = parent.command(words[i]!).description(GROUPS[path] ?? "");
        groups.set(path, group);
      }
      parent = group;
    }
    return parent;
  };
  for (const [name, spec] of Object.entries(specs)) {
    const words = name.split(" ");
    const command = parentOf(words).command(words.at(-1)!).description(spec.summary);
    for (const arg of spec.args ?? []) command.argument(`<${arg.name}>`, arg.description);
    for (const option of spec.options ?? []) command.addOption(toOption(option));
    if (spec.more) command.addHelpText("after", `\n${spec.more}`);
    command.action((...params: unknown[]) => {
      const flags = flagsOf(params.at(-1) as Command, spec);
      const missing = missingFlag(spec, flags);
      chosen(missing ? { kind: "exit", code: 2, error: missing } : { kind: "run", name, spec, flags });
    });
  }
  return program;
}

/**
 * Parses the arguments (without `node script`). Help goes to stdout (exit 0); a wrong command line, an
 * unknown flag or a missing value is an exit 2 with commander's message and a pointer to --help.
 */
export async function parseCommandLine(argv: string[], specs: Record<string, CommandSpec>): Promise<CommandLine> {
  let line: CommandLine = { kind: "exit", code: 2, error: "no command given" };
  try {
    await buildProgram(specs, (chosen) => (line = chosen)).parseAsync(argv, { from: "user" });
  } catch (err) {
    if (!(err instanceof CommanderError)) throw err;
    if (err.code === "commander.helpDisplayed" || err.code === "commander.version") return { kind: "exit", code: 0 };
    // A command group without its subcommand: commander has shown the group's help on stderr.
    if (err.code === "commander.help") return { kind: "exit", code: 2, error: "no command given (see the list above)" };
    return { kind: "exit", code: 2, error: `${err.message.replace(/^error: /, "")} (see --help)` };
  }
  return line;
}
