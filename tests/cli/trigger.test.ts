import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SpawnedWorker } from "@/scripts/lib/spawn-worker";
import { api, newMerchant, webUrls } from "../helpers/api";
import { startWatcherProcess } from "../helpers/chains";
import { runCli } from "../helpers/run-cli";

// `trigger` against a real web instance, with a merchant's sandbox key. Tron: the EVM chains' watchers
// belong to tests/chains/evm-lifecycle.test.ts, which kills and restarts them and must find nobody else
// leading; a second watcher on tron is one more candidate for a leadership nobody there takes away.
// Payout triggers need the jobs and an outbound leader for the chain, which only the custody phase may own in
// this stack: they run, with every other event, against an npm start of their own
// (tests/start/metrics-and-quickstart.test.ts).
const CHAIN = "tron";
let watcher: SpawnedWorker;
beforeAll(async () => {
  watcher = await startWatcherProcess([CHAIN]);
});
afterAll(async () => {
  await watcher?.stop();
});

const env = () => {
  const withoutKey = { ...process.env };
  delete withoutKey.USDT_API_KEY;
  return withoutKey;
};

describe("npm run cli -- trigger", () => {
  it("payment.confirmed: a payment paid and mined to confirmed, its event listed; JSON lines", async () => {
    const m = await newMerchant();
    const run = await runCli(
      [
        "trigger",
        "payment.confirmed",
        "--api-key",
        m.sandboxKey,
        "--base-url",
        webUrls()[0]!,
        "--chain",
        CHAIN,
        "--json",
      ],
      env(),
    );
    expect(run.code, run.stdout + run.stderr).toBe(0);
    const lines = run.stdout
      .trimEnd()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(lines.map((l) => l.step).slice(0, 2)).toEqual(["payment_created", "paid"]);
    const result = lines.at(-1);
    expect(result).toEqual({
      event: { id: expect.stringMatching(/^evt_/), type: "payment.confirmed" },
      payment: lines[0].payment,
    });
    const payment = await api("GET", `/v1/payments/${result.payment}`, { key: m.sandboxKey });
    expect(payment.json).toMatchObject({ status: "confirmed", chain: CHAIN, amount_received: "2.000000" });
    const listed = await api("GET", "/v1/events?type=payment.confirmed", { key: m.sandboxKey });
    expect(
      listed.json.data.map((e: { id: string; data: { object: { id: string } } }) => [e.id, e.data.object.id]),
    ).toEqual([[result.event.id, result.payment]]);
  }, 90_000);

  it("deposit.confirmed: a deposit address sent 2 USDT and mined to confirmed, its event listed", async () => {
    const m = await newMerchant();
    const run = await runCli(
      ["trigger", "deposit.confirmed", "--api-key", m.sandboxKey, "--base-url", webUrls()[0]!, "--chain", CHAIN],
      env(),
    );
    expect(run.code, run.stdout + run.stderr).toBe(0);
    const last = run.stdout.trimEnd().split("\n").at(-1)!;
    const [, eventId, depositId] = /^deposit\.confirmed happened: event (evt_\w+) \(deposit (dep_\w+)\)$/.exec(last)!;
    const deposit = await api("GET", `/v1/deposits/${depositId}`, { key: m.sandboxKey });
    expect(deposit.json).toMatchObject({ status: "confirmed", chain: CHAIN, amount: "2.000000" });
    const listed = await api("GET", "/v1/events?type=deposit.confirmed", { key: m.sandboxKey });
    expect(listed.json.data.map((e: { id: string }) => e.id)).toEqual([eventId]);
  }, 90_000);

  it("payment.awaiting_payment for people: one line per step, then the event; the key from USDT_API_KEY", async () => {
    const m = await newMerchant();
    const run = await runCli(["trigger", "payment.awaiting_payment", "--base-url", webUrls()[1]!], {
      ...env(),
      USDT_API_KEY: m.sandboxKey,
    });
    expect(run.code, run.stderr).toBe(0);
    const [created, happened, ...rest] = run.stdout.trimEnd().split("\n");
    expect(rest).toEqual([]);
    expect(created).toMatch(/^payment pay_\w+ created: 2\.000000 USDT on polygon, awaiting_payment$/);
    const paymentId = /pay_\w+/.exec(created!)![0];
    expect(happened).toMatch(
      new RegExp(`^payment\\.awaiting_payment happened: event evt_\\w+ \\(payment ${paymentId}\\)$`),
    );
  }, 60_000);

  it("refund.created, refund.requires_action, refund.canceled: a refund of a confirmed payment, its event listed; " +
    "the canceled amount back", async () => {
    const events = ["refund.created", "refund.requires_action", "refund.canceled"];
    const merchants = await Promise.all(events.map(() => newMerchant()));
    const url = webUrls()[0]!;
    const runs = await Promise.all(
      events.map((event, i) =>
        runCli(
          ["trigger", event, "--api-key", merchants[i]!.sandboxKey, "--base-url", url, "--chain", CHAIN, "--json"],
          env(),
        ),
      ),
    );
    for (const [i, run] of runs.entries()) {
      expect(run.code, run.stdout + run.stderr).toBe(0);
      const key = merchants[i]!.sandboxKey;
      const lines = run.stdout
        .trimEnd()
        .split("\n")
        .map((l) => JSON.parse(l));
      const result = lines.at(-1);
      expect(result).toEqual({
        event: { id: expect.stringMatching(/^evt_/), type: events[i] },
        refund: expect.stringMatching(/^re_/),
      });
      const refund = (await api("GET", `/v1/refunds/${result.refund}`, { key })).json;
      const listed = (await api("GET", `/v1/events?type=${events[i]}`, { key })).json.data;
      expect(listed.map((e: { id: string; data: { object: { id: string } } }) => [e.id, e.data.object.id])).toEqual([
        [result.event.id, result.refund],
      ]);
      const balance = (await api("GET", "/v1/balances", { key })).json.data.find(
        (b: { chain: string }) => b.chain === CHAIN,
      );
      if (events[i] === "refund.canceled") {
        expect(refund).toMatchObject({ status: "canceled", amount: "1.000000", claim_url: null });
        expect(balance).toMatchObject({ available: "2.000000", in_flight: "0.000000" });
      } else {
        expect(refund).toMatchObject({ status: "requires_action", amount: "1.000000", destination: "claim" });
        expect(refund.claim_url).toMatch(/\/refund\/\S+$/);
        expect(balance).toMatchObject({ available: "1.000000", in_flight: "1.000000" });
      }
    }
  }, 120_000);

  it("a wrong key, no key, a live key, an unreachable service, " +
    "a missing scope: non-zero exit saying so, nothing created", async () => {
    const m = await newMerchant("Without chain controls", { sandboxChains: false });
    const url = webUrls()[0]!;
    const trigger = (...args: string[]) => runCli(["trigger", "payment.awaiting_payment", ...args], env());
    const [wrong, none, live, down, unscoped, seenFirst] = await Promise.all([
      trigger("--api-key", `mnt_test_sk_${"x".repeat(43)}`, "--base-url", url),
      trigger("--base-url", url),
      trigger("--api-key", m.liveKey, "--base-url", url),
      trigger("--api-key", m.sandboxKey, "--base-url", "http://127.0.0.1:9", "--json"),
      runCli(["trigger", "payout.blocked", "--api-key", m.sandboxKey, "--base-url", url, "--chain", CHAIN], env()),
      // On tron the service reads Tether's freeze before signing: a frozen destination is blocked, never failed.
      runCli(["trigger", "payout.failed", "--api-key", m.sandboxKey, "--base-url", url, "--chain", CHAIN], env()),
    ]);
    expect(unscoped.code).toBe(1);
    expect(unscoped.stderr).toMatch(
      /^error: payout\.blocked freezes the destination, which needs a key with the sandbox:chains scope/,
    );
    expect(seenFirst.code).toBe(2);
    expect(seenFirst.stderr).toContain(
      "payout.failed needs a transfer that fails on chain: on tron the service sees the frozen destination before " +
        "signing (that is payout.blocked); use --chain bnb or polygon",
    );
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toMatch(
      /^error: the service refused the API key \(401: .*\); check --api-key or USDT_API_KEY\n$/,
    );
    expect(none.code).toBe(2);
    expect(none.stderr).toContain("--api-key is required (or set USDT_API_KEY)");
    expect(live.code).toBe(2);
    expect(live.stderr).toContain("trigger takes a sandbox key");
    expect(down.code).toBe(1);
    expect(JSON.parse(down.stdout).error.message).toMatch(/^cannot reach the service at http:\/\/127\.0\.0\.1:9 /);
    expect((await api("GET", "/v1/payments", { key: m.sandboxKey })).json.data).toEqual([]);
    expect((await api("GET", "/v1/payments", { key: m.liveKey })).json.data).toEqual([]);
  }, 60_000);
});
