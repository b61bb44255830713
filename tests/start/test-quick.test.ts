import { type ChildProcess, spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { stripVTControlCharacters } from "node:util";
import pg from "pg";
import { describe, expect, it } from "vitest";
import { startEmbeddedDatabase } from "@/lib/platform/db/embedded";
import { until } from "../helpers/started-service";

// The developer's quick loop (README, "Run one test file"): `npm run test:stack` keeps a database and the chains
// running, `npm run test:quick -- <file>` runs a suite file against them in seconds, and says what to do when
// no stack runs. Here on a PostgreSQL of the test's own, as a developer's DATABASE_URL would be.
const root = path.resolve(import.meta.dirname, "../..");
/** An npm script to its end, without blocking this process (the stack's output must keep being read). */
const npm = (args: string[], env: Record<string, string>) =>
  new Promise<{ status: number | null; output: string }>((resolve) => {
    const child = spawn("npm", ["run", "--silent", ...args], { cwd: root, env: { ...process.env, ...env } });
    let output = "";
    child.stdout.on("data", (d: Buffer) => (output += d));
    child.stderr.on("data", (d: Buffer) => (output += d));
    // vitest's colours stripped: the output as a terminal would show it.
    child.once("exit", (status) => resolve({ status, output: stripVTControlCharacters(output) }));
  });

describe("npm run test:quick", () => {
  // Its time is printed, not asserted (a busy CI machine is no measure): about 15 s on a quiet one.
  it("runs a named file against a running test:stack, refuses without one, and the stack stops clean", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "usdt-quick-"));
    fs.chmodSync(dir, 0o755); // PostgreSQL runs as its own user when started as root
    const database = await startEmbeddedDatabase(path.join(dir, "db"));
    const stackFile = path.join(dir, "stack.json");
    const env = { DATABASE_URL: database.url, TEST_STACK_FILE: stackFile };
    let stack: ChildProcess | undefined;
    try {
      const without = await npm(["test:quick", "--", "tests/events/events-api.test.ts"], env);
      expect(without.status).not.toBe(0);
      expect(without.output).toContain("No test stack is running");

      let out = "";
      // `npm run test:stack` runs this (npm itself answers a signal with 130, whatever its child did).
      stack = spawn(process.execPath, ["--import", "tsx", "scripts/test-stack.ts"], {
        cwd: root,
        env: { ...process.env, ...env },
      });
      stack.stdout!.on("data", (d: Buffer) => (out += d));
      stack.stderr!.on("data", (d: Buffer) => (out += d));
      await until("the stack ready", async () => out.includes("Test stack ready"), 90_000);
      const { databaseUrl } = JSON.parse(fs.readFileSync(stackFile, "utf8")) as { databaseUrl: string };

      const started = Date.now();
      const quick = await npm(["test:quick", "--", "tests/events/events-api.test.ts"], env);
      const tookMs = Date.now() - started;
      expect(quick.status, quick.output).toBe(0);
      expect(quick.output).toMatch(/Tests\s+3 passed \(3\)/);
      console.log(`test:quick of one file took ${(tookMs / 1000).toFixed(1)} s beside a ready stack`);

      stack.kill("SIGINT");
      await until("the stack stopped", async () => stack!.exitCode !== null, 30_000);
      expect(stack.exitCode).toBe(0);
      expect(fs.existsSync(stackFile)).toBe(false);
      const client = new pg.Client({ connectionString: database.url });
      await client.connect();
      const name = new URL(databaseUrl).pathname.slice(1);
      const left = await client.query("select 1 from pg_database where datname = $1", [name]);
      await client.end();
      expect(left.rowCount).toBe(0);
    } finally {
      if (stack?.exitCode === null) stack.kill("SIGKILL");
      await database.stop();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }, 300_000);
});
