import { execSync, spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { freePort } from "@/lib/platform/db/embedded";

export interface MemoryFigures {
  totalMiB: number;
  byProcess: { what: string; count: number; pssMiB: number }[];
}

const kind = (args: string) =>
  /anvil/.test(args)
    ? "anvil (sandbox chains)"
    : /^postgres|\/postgres /.test(args)
      ? "postgres"
      : /start-web/.test(args)
        ? "node: web"
        : /start-worker/.test(args)
          ? "node: worker"
          : /start-chains/.test(args)
            ? "node: chain supervisor"
            : /start-db/.test(args)
              ? "node: database supervisor"
              : /scripts\/start\.ts/.test(args)
                ? "node: npm start"
                : /^npm|npm start/.test(args)
                  ? "npm"
                  : "other";

/** Proportional set size: shared pages (PostgreSQL's shared buffers, code) counted once across processes. */
function pssKb(pid: string): number | null {
  try {
    const m = /^Pss:\s+(\d+) kB/m.exec(fs.readFileSync(`/proc/${pid}/smaps_rollup`, "utf8"));
    return m ? Number(m[1]) : null;
  } catch {
    return null;
  }
}

/** (c) memory (PSS) of everything `npm start` runs (its process tree), `settleMs` after it is up. */
export async function measureStackMemory(root: string, settleMs: number): Promise<MemoryFigures> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "usdt-bench-stack-"));
  const port = await freePort();
  const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir, PORT: String(port), LOG_LEVEL: "warn" };
  delete env.DATABASE_URL;
  const child = spawn("npm", ["start"], { cwd: root, env, detached: true, stdio: ["ignore", "pipe", "pipe"] });
  let out = "";
  child.stdout!.on("data", (d) => (out += d));
  child.stderr!.on("data", (d) => (out += d));
  try {
    const deadline = Date.now() + 180_000;
    while (!out.includes("Press Ctrl-C to stop.")) {
      if (Date.now() > deadline || child.exitCode !== null) throw new Error(`npm start did not come up:\n${out}`);
      await new Promise((r) => setTimeout(r, 200));
    }
    await new Promise((r) => setTimeout(r, settleMs));
    const rows = execSync(`ps -eo pid=,ppid=,rss=,args=`)
      .toString()
      .split("\n")
      .map((line) => /^\s*(\d+)\s+(\d+)\s+(\d+)\s+(.*)$/.exec(line))
      .filter((m): m is RegExpExecArray => m !== null)
      .map((m) => ({ pid: m[1]!, ppid: m[2]!, kb: Number(m[3]), args: m[4]! }));
    // Every descendant of `npm start` (PostgreSQL's backends start their own sessions, so not the group).
    const tree = new Set([String(child.pid)]);
    for (let grew = true; grew; ) {
      grew = false;
      for (const r of rows)
        if (tree.has(r.ppid) && !tree.has(r.pid)) {
          tree.add(r.pid);
          grew = true;
        }
    }
    const groups = new Map<string, { count: number; kb: number }>();
    for (const r of rows) {
      if (!tree.has(r.pid)) continue;
      const what = kind(r.args);
      const g = groups.get(what) ?? { count: 0, kb: 0 };
      g.count += 1;
      g.kb += pssKb(r.pid) ?? r.kb;
      groups.set(what, g);
    }
    const byProcess = [...groups.entries()]
      .map(([what, g]) => ({ what, count: g.count, pssMiB: Math.round(g.kb / 1024) }))
      .sort((a, b) => b.pssMiB - a.pssMiB);
    return { totalMiB: byProcess.reduce((s, p) => s + p.pssMiB, 0), byProcess };
  } finally {
    try {
      process.kill(-child.pid!, "SIGTERM");
    } catch {
      /* gone */
    }
    await new Promise((r) => setTimeout(r, 3_000));
    try {
      process.kill(-child.pid!, "SIGKILL");
    } catch {
      /* gone */
    }
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}
