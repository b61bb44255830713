import { spawnSync } from "node:child_process";
import path from "node:path";
import { describe, expect, it } from "vitest";

const root = path.resolve(import.meta.dirname, "../..");

describe("npm start with a bad configuration", () => {
  it("exits 1 before starting anything, naming every bad variable, without a stack trace", () => {
    const run = spawnSync("npm", ["start"], {
      cwd: root,
      env: { ...process.env, PORT: "abc", MASTER_KEY: "too-short", ETH_CONFIRMATIONS: "many" },
      encoding: "utf8",
      timeout: 30_000,
    });
    expect(run.status).toBe(1);
    expect(run.stderr).toContain('PORT must be a positive integer, got "abc"');
    expect(run.stderr).toContain("MASTER_KEY must be 32 bytes, base64 or hex");
    expect(run.stderr).not.toContain("too-short");
    expect(run.stderr).toContain('ETH_CONFIRMATIONS must be a positive integer, got "many"');
    expect(run.stderr).not.toMatch(/^\s+at /m);
    expect(run.stdout).not.toContain("USDT Payments is running");
  });

  it("refuses the crash test hook with a live chain configured", () => {
    const run = spawnSync("npm", ["start"], {
      cwd: root,
      env: { ...process.env, OUTBOUND_CRASH_AT: "after_sign", ETH_RPC_URL: "http://127.0.0.1:1/rpc-key-secret" },
      encoding: "utf8",
      timeout: 30_000,
    });
    expect(run.status).toBe(1);
    expect(run.stderr).toContain("OUTBOUND_CRASH_AT is a test hook and cannot be set while live chains are configured");
    expect(run.stderr).not.toContain("rpc-key-secret");
    expect(run.stdout).not.toContain("USDT Payments is running");
  });
});
