import { type ChildProcess, spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import Stripe from "stripe";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { constructEvent } from "../../sdk/src/webhooks";
import { api, newMerchant, webUrls } from "../helpers/api";
import { runCli } from "../helpers/run-cli";
import { until } from "../helpers/started-service";
import { startReceiver } from "../helpers/webhook-receiver";

const root = path.resolve(import.meta.dirname, "../..");
const stripe = new Stripe("sk_test_unused");
let stateHome: string;
let receiver: Awaited<ReturnType<typeof startReceiver>>;
beforeAll(async () => {
  stateHome = fs.mkdtempSync(path.join(os.tmpdir(), "listen-state-"));
  receiver = await startReceiver();
});
afterAll(async () => {
  await receiver?.close();
  fs.rmSync(stateHome, { recursive: true, force: true });
});

const env = () => {
  const clean: NodeJS.ProcessEnv = { ...process.env, XDG_STATE_HOME: stateHome };
  delete clean.USDT_API_KEY;
  return clean;
};

/** `listen --json` as its own process (node itself, not npm, so that a SIGKILL hits it): its lines as they come. */
function startListen(args: string[]) {
  const child: ChildProcess = spawn(
    process.execPath,
    ["--import", "tsx", "scripts/cli.ts", "listen", "--json", ...args],
    {
      cwd: root,
      env: env(),
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  const lines: Record<string, any>[] = [];
  let buffer = "";
  let stderr = "";
  child.stdout!.on("data", (d: Buffer) => {
    buffer += d.toString();
    const parts = buffer.split("\n");
    buffer = parts.pop()!;
    for (const line of parts) lines.push(JSON.parse(line));
  });
  child.stderr!.on("data", (d: Buffer) => (stderr += d));
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  return {
    lines,
    stderr: () => stderr,
    line: (what: string, match: (l: Record<string, any>) => boolean) =>
      until(what, async () => lines.find(match), 30_000),
    kill: async (signal: NodeJS.Signals) => {
      child.kill(signal);
      return exited;
    },
  };
}

const createPayment = async (key: string) =>
  (await api("POST", "/v1/payments", { key, body: { amount: "1.000000", chain: "polygon" } })).json.id as string;

/** The event a payment's creation recorded, as GET /v1/events lists it. */
async function creationEvent(key: string, paymentId: string) {
  const list = (await api("GET", "/v1/events?type=payment.awaiting_payment&limit=100", { key })).json;
  return list.data.find((e: { data: { object: { id: string } } }) => e.data.object.id === paymentId);
}

describe("npm run cli -- listen", () => {
  it("forwards each event signed with the printed secret (SDK and stripe-node verify it); a SIGKILLed listen resumes " +
    "with nothing missed or repeated", async () => {
    const m = await newMerchant();
    const args = ["--forward-to", receiver.url("/hooks"), "--api-key", m.sandboxKey, "--base-url", webUrls()[0]!];
    const first = startListen(args);
    const ready = await first.line("ready", (l) => l.ready);
    expect(ready).toMatchObject({ mode: "sandbox", forward_to: receiver.url("/hooks"), resumed_after: null });
    expect(ready.secret).toMatch(/^whsec_[\w-]{43}$/);

    const a = await createPayment(m.sandboxKey);
    const eventA = await creationEvent(m.sandboxKey, a);
    const lineA = await first.line("event A forwarded", (l) => l.event?.id === eventA.id);
    expect(lineA).toEqual({
      event: { id: eventA.id, type: "payment.awaiting_payment" },
      forwarded: { url: receiver.url("/hooks"), status: 200 },
    });
    const delivery = receiver.at("/hooks").find((r) => r.body.includes(eventA.id))!;
    // The exact bytes a webhook delivery carries, verified by both libraries with the printed secret.
    expect(delivery.body).toBe(JSON.stringify(eventA));
    expect(constructEvent(delivery.body, delivery.headers["service-signature"] as string, ready.secret).id).toBe(
      eventA.id,
    );
    const viaStripe = stripe.webhooks.constructEvent(
      delivery.body,
      delivery.headers["stripe-signature"] as string,
      ready.secret,
    );
    expect(viaStripe.id).toBe(eventA.id);
    expect(() =>
      constructEvent(delivery.body, delivery.headers["service-signature"] as string, "whsec_other"),
    ).toThrow();

    // Killed without warning; two events happen while nothing listens.
    expect(await first.kill("SIGKILL")).toBe(null);
    const b = await createPayment(m.sandboxKey);
    const c = await createPayment(m.sandboxKey);
    const missed = [await creationEvent(m.sandboxKey, b), await creationEvent(m.sandboxKey, c)].map((e) => e.id);

    receiver.failFirst("/hooks", [500]);
    const second = startListen(args);
    const resumed = await second.line("ready again", (l) => l.ready);
    expect(resumed).toMatchObject({ secret: ready.secret, resumed_after: eventA.id });
    const lineB = await second.line("event B", (l) => l.event?.id === missed[0]);
    expect(lineB.forwarded).toEqual({ url: receiver.url("/hooks"), status: 500 }); // shown, and listen goes on
    await second.line("event C", (l) => l.event?.id === missed[1]);
    const d = await createPayment(m.sandboxKey);
    const eventD = await creationEvent(m.sandboxKey, d);
    await second.line("event D", (l) => l.event?.id === eventD.id);
    expect(await second.kill("SIGTERM")).toBe(0);
    expect(second.lines.at(-1)).toEqual({ stopped: true, last_event_id: eventD.id });

    const forwarded = receiver.at("/hooks").map((r) => JSON.parse(r.body).id);
    expect(forwarded).toEqual([eventA.id, ...missed, eventD.id]);
    expect(fs.readdirSync(path.join(stateHome, "usdt-payments")).join()).not.toContain(m.sandboxKey);
  }, 120_000);

  it("refuses before listening: a bad --forward-to or --events (exit 2), " +
    "a wrong key or an unreachable service (exit 1)", async () => {
    const m = await newMerchant();
    const base = ["listen", "--api-key", m.sandboxKey, "--base-url", webUrls()[0]!];
    const badUrl = await runCli([...base, "--forward-to", "localhost:4000/hooks"], env());
    expect([badUrl.code, badUrl.stderr]).toEqual([2, expect.stringContaining("--forward-to must be an http(s) URL")]);
    const badType = await runCli([...base, "--forward-to", receiver.url("/x"), "--events", "payment.nope"], env());
    expect([badType.code, badType.stderr]).toEqual([2, expect.stringContaining('unknown type "payment.nope"')]);
    const wrongKey = await runCli(
      ["listen", "--api-key", "mnt_test_sk_wrong", "--base-url", webUrls()[0]!, "--forward-to", receiver.url("/x")],
      env(),
    );
    expect([wrongKey.code, wrongKey.stderr]).toEqual([1, expect.stringContaining("refused the API key (401")]);
    const down = await runCli(
      ["listen", "--api-key", m.sandboxKey, "--base-url", "http://127.0.0.1:9", "--forward-to", receiver.url("/x")],
      env(),
    );
    expect([down.code, down.stderr]).toEqual([1, expect.stringContaining("cannot reach the service")]);
    expect(receiver.at("/x")).toEqual([]);
  }, 60_000);
});
