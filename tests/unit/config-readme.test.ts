import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { CHAINS } from "@/lib/kernel/chain-ids";
import { CONFIG_VARIABLES } from "@/lib/platform/config/env";

const root = path.resolve(import.meta.dirname, "../..");
/** Where the service's own code lives (tests, e2e and bench have knobs of their own). */
const SOURCE_DIRS = ["lib", "app", "scripts", "worker", "components", "sandbox", "db"];
/**
 * Files that may name a process.env variable outside lib/platform/config,
 * each for a reason lib/platform/config/env.ts gives.
 */
const PROCESS_ENV_PLUMBING = [
  "scripts/lib/spawn-web.ts",
  "scripts/lib/entry-bundles.ts",
  "scripts/test.ts",
  "scripts/test-quick.ts",
  "next.config.mjs",
];

/** The variable names in the first column of the README's "## Configuration" table; `<CHAIN>_X` expanded. */
function documentedVariables(): Set<string> {
  const readme = fs.readFileSync(path.join(root, "README.md"), "utf8");
  const section = readme.split(/^## Configuration$/m)[1]!.split(/^## /m)[0]!;
  const names = new Set<string>();
  for (const line of section.split("\n").filter((l) => l.startsWith("| `"))) {
    const firstColumn = line.split("|")[1]!;
    for (const [, name] of firstColumn.matchAll(/`([^`]+)`/g)) {
      if (name!.startsWith("<CHAIN>_"))
        for (const chain of CHAINS) names.add(name!.replace("<CHAIN>", chain.toUpperCase()));
      else names.add(name!);
    }
  }
  return names;
}

function sourceFiles(dir: string): string[] {
  const full = path.join(root, dir);
  if (!fs.existsSync(full)) return [];
  return fs.readdirSync(full, { recursive: true, encoding: "utf8" }).flatMap((file) => {
    const relative = path.join(dir, file);
    return /\.(ts|tsx|mjs)$/.test(file) && fs.statSync(path.join(root, relative)).isFile() ? [relative] : [];
  });
}

/** `process.env.NAME` and `process.env["NAME"]` in the service's code, by file. */
function processEnvNames(): Map<string, string[]> {
  const byFile = new Map<string, string[]>();
  for (const file of [...SOURCE_DIRS.flatMap(sourceFiles), "next.config.mjs", "drizzle.config.ts"]) {
    if (!fs.existsSync(path.join(root, file))) continue;
    const source = fs.readFileSync(path.join(root, file), "utf8");
    const names = [...source.matchAll(/process\.env(?:\.([A-Z][A-Z0-9_]*)|\[["']([A-Z][A-Z0-9_]*)["']\])/g)].map(
      (m) => (m[1] ?? m[2])!,
    );
    if (names.length) byFile.set(file, names);
  }
  return byFile;
}

describe("the README's configuration table", () => {
  const documented = documentedVariables();

  it("finds the table and understands its <CHAIN>_ rows", () => {
    expect(documented.has("PORT")).toBe(true);
    expect(documented.has("POLYGON_CONFIRMATIONS")).toBe(true);
    expect(documented.has("SOLANA_USDT_DECIMALS")).toBe(true);
  });

  it("lists every variable the configuration schema reads", () => {
    expect(CONFIG_VARIABLES.filter((name) => !documented.has(name))).toEqual([]);
  });

  it("lists every process.env variable still named in the service's code", () => {
    const names = [...processEnvNames().values()].flat();
    expect([...new Set(names)].filter((name) => !documented.has(name))).toEqual([]);
  });

  it("documents nothing the code does not read", () => {
    const read = new Set([...CONFIG_VARIABLES, ...[...processEnvNames().values()].flat()]);
    expect([...documented].filter((name) => !read.has(name))).toEqual([]);
  });
});

describe("process.env outside lib/platform/config", () => {
  it("is only touched by the documented plumbing", () => {
    const files = [...processEnvNames().keys()].filter(
      (file) => !file.startsWith(path.join("lib", "platform", "config")),
    );
    expect(files.sort()).toEqual([...PROCESS_ENV_PLUMBING].sort());
  });
});
