import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";

const SOURCES = ["app", "components", "lib", "db/schema", "public"];
const FILES = ["next.config.mjs", "postcss.config.mjs", "tsconfig.json", "package.json", "package-lock.json"];

function hashTree(root: string): string {
  const hash = createHash("sha256");
  const walk = (rel: string) => {
    const abs = path.join(root, rel);
    if (!fs.existsSync(abs)) return;
    const stat = fs.statSync(abs);
    if (stat.isDirectory()) {
      for (const entry of fs.readdirSync(abs).sort()) walk(path.join(rel, entry));
    } else {
      hash.update(rel).update("\0").update(fs.readFileSync(abs)).update("\0");
    }
  };
  for (const entry of [...SOURCES, ...FILES]) walk(entry);
  return hash.digest("hex");
}

/**
 * Runs `next build` unless .next already holds a build of exactly these sources, so the one-command
 * start and the test command build once and then start in seconds.
 */
export function ensureNextBuild(
  root: string,
  log: (line: string) => void = console.log,
  opts: { typeCheck?: boolean } = {},
): void {
  const stamp = path.join(root, ".next", "source-hash");
  const buildIdFile = path.join(root, ".next", "BUILD_ID");
  const current = hashTree(root);
  // The stamp names the build it vouches for, so a `next build` run by hand (other sources) invalidates it.
  const built =
    fs.existsSync(buildIdFile) &&
    fs.existsSync(stamp) &&
    fs.readFileSync(stamp, "utf8") === `${current}:${fs.readFileSync(buildIdFile, "utf8")}`;
  if (built) return;
  log("Building the web app (next build)…");
  const result = spawnSync(path.join(root, "node_modules", ".bin", "next"), ["build"], {
    cwd: root,
    stdio: ["ignore", "inherit", "inherit"],
    env: {
      ...process.env,
      NEXT_TELEMETRY_DISABLED: "1",
      ...(opts.typeCheck === false ? { USDT_BUILD_SKIPS_TYPECHECK: "1" } : {}),
    },
  });
  if (result.status !== 0) throw new Error(`next build failed (exit ${result.status ?? result.signal})`);
  fs.writeFileSync(stamp, `${current}:${fs.readFileSync(buildIdFile, "utf8")}`);
}
