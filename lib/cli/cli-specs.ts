import { COMMAND_SPECS, type CommandSpec } from "./command-specs";
import { LISTEN_SPEC } from "./listen-command";
import { TRIGGER_SPEC } from "./trigger-command";

/**
 * Every command's flags and help (command-specs.ts; trigger's and listen's beside their handlers). Loading this loads
 * no domain code, so --help and a refused command line answer without it (scripts/cli.ts loads the handlers after).
 */
export const SPECS: Record<string, CommandSpec> = { ...COMMAND_SPECS, trigger: TRIGGER_SPEC, listen: LISTEN_SPEC };
