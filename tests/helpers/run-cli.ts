import { spawn } from "node:child_process";
import path from "node:path";
import { entryPoint } from "@/scripts/lib/entry-bundles";

const root = path.resolve(import.meta.dirname, "../..");

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * Runs the CLI, scripts/cli.ts: from its bundle when `npm test` made one (scripts/lib/entry-bundles.ts), else as
 * the README says, `npm run --silent cli -- …`. `viaNpm` always takes the README's way (tests/cli/help.test.ts
 * proves it works).
 */
export function runCli(args: string[], env: NodeJS.ProcessEnv, opts: { viaNpm?: boolean } = {}): Promise<CliResult> {
  const entry = entryPoint(path.join(root, "scripts/cli.ts"));
  const bundled = entry.execArgv.length === 0;
  const [command, argv] =
    bundled && !opts.viaNpm
      ? [process.execPath, [entry.file, ...args]]
      : ["npm", ["run", "--silent", "cli", "--", ...args]];
  return new Promise((resolve, reject) => {
    const child = spawn(command, argv, { cwd: root, env, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code: code ?? -1, stdout, stderr }));
  });
}
