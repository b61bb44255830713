import { describe, expect, it } from "vitest";
import { runCli } from "../helpers/run-cli";

// The figures themselves are proven against the chains in tests/custody/ (tron-outbound, evm-sweeps, payouts).
describe("cli costs: its command line", () => {
  it("refuses a --since that is no date (exit 2, saying so); " +
    "with nothing recorded since then says so, exit 0", async () => {
    const [bad, none, noneJson] = await Promise.all([
      runCli(["costs", "--mode", "sandbox", "--since", "last tuesday"], process.env),
      runCli(["costs", "--mode", "sandbox", "--since", "2999-01-01"], process.env),
      runCli(
        ["costs", "--mode", "sandbox", "--since", "2999-01-01T00:00:00Z", "--chain", "tron", "--json"],
        process.env,
      ),
    ]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--since must be a day (YYYY-MM-DD) or an ISO 8601 instant, got "last tuesday"');
    expect([none.code, none.stdout]).toEqual([0, "no fees recorded since 2999-01-01T00:00:00.000Z\n"]);
    expect(JSON.parse(noneJson.stdout)).toEqual({
      object: "cost_report",
      mode: "sandbox",
      since: "2999-01-01T00:00:00.000Z",
      chains: [],
      days: [],
    });
  }, 60_000);
});
