import { execSync } from "node:child_process";
import fs from "node:fs";

/**
 * The pid of `npm start`'s child running scripts/<entry>.ts, from source (tsx) or from npm test's bundle
 * (.build/<entry>.mjs, scripts/lib/entry-bundles.ts), found in process group `pgid` (Linux ps).
 */
export function npmStartChild(pgid: number, entry: "start-web" | "start-worker"): number {
  const line = execSync("ps -eo pid,pgid,args")
    .toString()
    .split("\n")
    .find((l) => {
      const [, group] = l.trim().split(/\s+/);
      return (
        Number(group) === pgid &&
        !l.includes(" sh -c ") &&
        (l.includes(`scripts/${entry}.ts`) || l.includes(`.build/${entry}.mjs`))
      );
    });
  if (!line) throw new Error(`no ${entry} process in group ${pgid}`);
  return Number(line.trim().split(/\s+/)[0]);
}

/** The environment a process was started with, as Linux shows it. */
export function environOf(pid: number): Record<string, string> {
  const raw = fs.readFileSync(`/proc/${pid}/environ`, "utf8");
  return Object.fromEntries(
    raw
      .split("\0")
      .filter(Boolean)
      .map((entry) => [entry.slice(0, entry.indexOf("=")), entry.slice(entry.indexOf("=") + 1)]),
  );
}
