import { describe, expect, it } from "vitest";
import { SPECS } from "@/lib/cli/cli-specs";
import { COMMANDS } from "@/lib/cli/commands";
import { runCli } from "../helpers/run-cli";

// None of these reach a database: --help and a refused command line are answered before any starts.
const env = { ...process.env };

describe("CLI --help and refused command lines", () => {
  it("every command has its flags and help, and every spec its handler", () => {
    expect(Object.keys(SPECS).sort()).toEqual(Object.keys(COMMANDS).sort());
  });

  it("--help on the CLI, a command and a subcommand describes each flag, exit 0", async () => {
    const [root, keys, create, trigger] = await Promise.all([
      // As the README runs it (the other runs may use npm test's bundle of the CLI).
      runCli(["--help"], env, { viaNpm: true }),
      runCli(["keys", "--help"], env),
      runCli(["keys", "create", "--help"], env),
      runCli(["trigger", "--help"], env),
    ]);
    for (const run of [root, keys, create, trigger]) expect(run.code, run.stderr).toBe(0);
    expect(root.stdout).toMatch(/--json\s+print JSON/);
    expect(root.stdout).toMatch(/^\s+trigger \[options\] <event>/m);
    expect(keys.stdout).toMatch(/^\s+rotate \[options\]\s+replace a key/m);
    expect(create.stdout).toMatch(/--merchant <id>\s+the merchant \(mer_…\) \(required\)/);
    expect(create.stdout).toMatch(/--scopes <list>\s+comma-separated/);
    expect(trigger.stdout).toMatch(/--api-key <key>.*\(env: USDT_API_KEY\)/);
    expect(trigger.stdout).toMatch(/^\s+payment\.confirmed\s+creates a payment/m);
    expect(trigger.stdout).toMatch(/^\s+payout\.failed\s+/m);
    expect(trigger.stdout).toMatch(/^\s+refund\.succeeded\s+a confirmed payment, then a 1 USDT refund/m);
  }, 60_000);

  it("an unknown flag, a flag without its value and a missing required flag: exit 2 with a message", async () => {
    const [unknown, unknownJson, noValue, missing] = await Promise.all([
      runCli(["keys", "list", "--merchant", "mer_x", "--frob"], env),
      runCli(["keys", "list", "--merchant", "mer_x", "--frob", "--json"], env),
      runCli(["keys", "list", "--merchant"], env),
      runCli(["keys", "rotate"], env),
    ]);
    expect([unknown.code, unknown.stdout]).toEqual([2, ""]);
    expect(unknown.stderr).toBe("error: unknown option '--frob' (see --help)\n");
    expect(unknownJson.code).toBe(2);
    expect(JSON.parse(unknownJson.stdout)).toEqual({ error: { message: "unknown option '--frob' (see --help)" } });
    expect(noValue.code).toBe(2);
    expect(noValue.stderr).toContain("option '--merchant <id>' argument missing");
    expect(missing.code).toBe(2);
    expect(missing.stderr).toBe("error: --key is required: the key (key_…)\n");
  }, 60_000);
});
