import { execFileSync } from "node:child_process";
import { createHmac, randomUUID } from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resetConfig } from "@/lib/platform/config/env";
import { adjustBalance } from "@/lib/books/ledger/adjust-balance";
import { getDb, getPool } from "@/lib/platform/db/client";
import { type JobRunner, startWorker } from "@/worker/start-jobs";
import type * as Sdk from "../../sdk/src/index";
import { newMerchant, webUrls } from "../helpers/api";
import { startReceiver, waitFor } from "../helpers/webhook-receiver";
import { envelope, startProxy } from "./proxy";

// This file's worker delivers to a loopback receiver (the web instances allow it for sandbox endpoints too).
process.env.WEBHOOKS_ALLOW_PRIVATE_URLS = "true";
resetConfig();

const root = path.resolve(import.meta.dirname, "../..");
const sdkDir = path.join(root, "sdk");
const REQUEST_ID = /^req_[0-9A-Za-z]{20}$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

let sdk: typeof Sdk;
const base = () => webUrls()[0]!;
const clientFor = async (options: Sdk.ClientOptions = {}) =>
  new sdk.Client((await newMerchant()).sandboxKey, { baseUrl: base(), ...options });
const rejection = (promise: PromiseLike<unknown>) =>
  Promise.resolve(promise).then(
    () => null,
    (e: unknown) => e as any,
  );

beforeAll(async () => {
  // What an application gets: the package built (npm run build: in place, so a root type check reading
  // sdk/dist meanwhile never finds it gone), then its dist/ imported.
  execFileSync("npm", ["run", "--silent", "build"], { cwd: sdkDir, stdio: "pipe" });
  sdk = await import(pathToFileURL(path.join(sdkDir, "dist/index.js")).href);
});

describe("payments", () => {
  it("creates and retrieves a payment, and for-await walks every page with starting_after", async () => {
    const urls: string[] = [];
    const client = await clientFor({ fetch: watchedFetch((url) => urls.push(url)) });
    const created: Sdk.Payment[] = [];
    for (const amount of ["1.000000", "2.000000", "3.000000"])
      created.push(await client.payments.create({ amount, chain: "eth", metadata: { amount } }));
    const [first] = created as [Sdk.WithResponse<Sdk.Payment>];
    expect(first).toMatchObject({ object: "payment", status: "awaiting_payment", amount: "1.000000", chain: "eth" });
    expect(first.lastResponse).toMatchObject({ status: 200, idempotentReplayed: false, attempts: 1 });
    expect(first.lastResponse.requestId).toMatch(REQUEST_ID);
    expect(first.lastResponse.idempotencyKey).toMatch(UUID);
    expect(await client.payments.retrieve(created[1]!.id)).toEqual(created[1]);

    const page = await client.payments.list({ limit: 2 });
    expect(page.data.map((p) => p.id)).toEqual([created[2]!.id, created[1]!.id]);
    expect(page.has_more).toBe(true);
    urls.length = 0;
    const walked: string[] = [];
    for await (const p of client.payments.list({ limit: 2 })) walked.push(p.id);
    expect(walked).toEqual(created.map((p) => p.id).reverse());
    expect(urls.map((u) => new URL(u).search)).toEqual(["?limit=2", `?limit=2&starting_after=${created[1]!.id}`]);

    // Filters as objects, sent as bracketed parameters, kept on every page.
    urls.length = 0;
    const filtered: string[] = [];
    const since = new Date(Date.now() - 3_600_000).toISOString();
    for await (const p of client.payments.list({
      limit: 1,
      chain: "eth",
      created: { gte: since },
      metadata: { amount: "2.000000" },
    }))
      filtered.push(p.id);
    expect(filtered).toEqual([created[1]!.id]);
    expect(new URL(urls[0]!).searchParams.get("created[gte]")).toBe(since);
    expect(new URL(urls[0]!).searchParams.get("metadata[amount]")).toBe("2.000000");
  });

  it("throws typed errors from the envelope, and never retries a 4xx", async () => {
    let sent = 0;
    const client = await clientFor({ fetch: watchedFetch(() => sent++) });
    const invalid = await rejection(client.payments.create({ amount: "25" }));
    expect(invalid).toBeInstanceOf(sdk.InvalidRequestError);
    expect(invalid).toBeInstanceOf(sdk.ApiError);
    expect(invalid).toMatchObject({ type: "invalid_request_error", status: 400, param: "amount" });
    expect(invalid.requestId).toMatch(REQUEST_ID);
    expect(invalid.requestId).toBe(invalid.headers.get("request-id"));
    expect(invalid.message.length).toBeGreaterThan(0);

    const missing = await rejection(client.payments.retrieve("pay_000000000000000000000000"));
    expect(missing).toBeInstanceOf(sdk.NotFoundError);
    expect(missing).toMatchObject({ type: "not_found", status: 404, param: "id" });

    const broke = await rejection(client.payouts.create({ chain: "eth", to_address: ADDRESS, amount: "1.000000" }));
    expect(broke).toBeInstanceOf(sdk.InsufficientBalanceError);
    expect(broke).toMatchObject({ type: "insufficient_balance", status: 422, param: "amount" });

    const stranger = new sdk.Client(`mnt_test_sk_${"x".repeat(43)}`, {
      baseUrl: base(),
      fetch: watchedFetch(() => sent++),
    });
    expect(await rejection(stranger.balances.list())).toMatchObject({ type: "unauthorized", status: 401 });
    expect(sent).toBe(4); // maxRetries is 2 by default: none of these was sent twice
  });

  it("reaches the other resources: links, balances, events, sandbox helpers, refunds, customers", async () => {
    const client = await clientFor();
    const link = await client.paymentLinks.create({ amount: "12.5", description: "SDK" });
    expect(link).toMatchObject({ object: "payment_link", amount: "12.500000", active: true });
    expect(await client.paymentLinks.retrieve(link.id)).toEqual(link);
    expect((await client.paymentLinks.list()).data).toEqual([link]);
    const balances = await client.balances.list();
    expect(balances.data.map((b) => b.chain).sort()).toEqual(["bnb", "eth", "polygon", "solana", "tron"]);

    const payment = await client.payments.create({ amount: "2.500000", chain: "polygon" });
    const [event] = (await client.events.list({ type: "payment.awaiting_payment" })).data;
    expect(event?.type === "payment.awaiting_payment" && event.data.object.id).toBe(payment.id);
    expect(await client.events.retrieve(event!.id)).toEqual(event);

    const chains = await client.sandbox.listChains();
    expect(chains.data.map((c) => c.chain).sort()).toEqual(["bnb", "eth", "polygon", "solana", "tron"]);
    const transfer = await client.sandbox.simulatePayment(payment.id);
    expect(transfer).toMatchObject({ object: "sandbox_transfer", payment: payment.id, amount: "2.500000" });
    const mined = await client.sandbox.mine("polygon", { blocks: 2 });
    expect(mined).toMatchObject({ object: "sandbox_chain_mined", chain: "polygon", blocks: 2 });
    // Refunds: typed refusals for a payment with nothing credited yet, and the (empty) list.
    const early = await rejection(client.refunds.create({ payment: payment.id, destination: "sender" }));
    expect(early).toBeInstanceOf(sdk.InvalidRequestError);
    expect(early).toMatchObject({ type: "invalid_request_error", status: 400, param: "payment" });
    expect(await rejection(client.refunds.retrieve("re_missing"))).toBeInstanceOf(sdk.NotFoundError);
    expect(await rejection(client.refunds.cancel("re_missing"))).toBeInstanceOf(sdk.NotFoundError);
    expect((await client.refunds.list({ payment: payment.id })).data).toEqual([]);

    // Customers: created, found by reference, updated, walked, deleted; a taken reference is a typed refusal.
    const ada = await client.customers.create({ name: "Ada", reference: "user-1", metadata: { tier: 1 } });
    expect(ada).toMatchObject({ object: "customer", name: "Ada", reference: "user-1", email: null });
    const taken = await rejection(client.customers.create({ reference: "user-1" }));
    expect(taken).toBeInstanceOf(sdk.InvalidRequestError);
    expect(taken).toMatchObject({ param: "reference" });
    expect((await client.customers.list({ reference: "user-1" })).data).toEqual([ada]);
    const renamed = await client.customers.update(ada.id, { email: "ada@example.com", reference: null });
    expect(renamed).toEqual({ ...ada, email: "ada@example.com", reference: null });
    const bob = await client.customers.create();
    expect(await client.customers.list({ limit: 1 }).toArray()).toEqual([bob, renamed]);
    expect(await client.customers.del(bob.id)).toEqual({ id: bob.id, object: "customer", deleted: true });
    expect(await rejection(client.customers.retrieve(bob.id))).toBeInstanceOf(sdk.NotFoundError);

    // Deposit addresses: one per customer and chain, disabled, listed; their deposits listed (none yet).
    const address = await client.depositAddresses.create({ chain: "tron", customer: ada.id });
    expect(address).toMatchObject({ object: "deposit_address", customer: ada.id, chain: "tron", status: "active" });
    expect(await client.depositAddresses.create({ chain: "tron", customer: ada.id })).toEqual(address);
    const off = await client.depositAddresses.update(address.id, { status: "disabled" });
    expect(off).toEqual({ ...address, status: "disabled" });
    expect(await client.depositAddresses.list({ customer: ada.id }).toArray()).toEqual([off]);
    expect((await client.deposits.list({ deposit_address: address.id })).data).toEqual([]);
    expect(await rejection(client.deposits.retrieve("dep_none"))).toBeInstanceOf(sdk.NotFoundError);
  });

  it("finds and accounts: balance transactions page by page, a statement, search", async () => {
    const m = await newMerchant();
    const client = new sdk.Client(m.sandboxKey, { baseUrl: base() });
    for (const amount of [1_000_000n, 2_000_000n, 3_000_000n])
      await adjustBalance(getDb(), { merchantId: m.id, mode: "sandbox", chain: "bnb", amount, reason: "sdk" });
    const walked: string[][] = [];
    for await (const t of client.balanceTransactions.list({ chain: "bnb", limit: 2 }))
      walked.push([t.type, t.amount, t.available_after]);
    expect(walked).toEqual([
      ["adjustment", "3.000000", "6.000000"],
      ["adjustment", "2.000000", "3.000000"],
      ["adjustment", "1.000000", "1.000000"],
    ]);
    const to = new Date(Date.now() + 60_000).toISOString();
    const statement = await client.reports.statement({ chain: "bnb", from: "2026-01-01", to });
    expect(statement.chains[0]).toMatchObject({
      opening_balance: "0.000000",
      closing_balance: "6.000000",
      totals: { adjustment: "6.000000", payment: "0.000000" },
    });
    const payment = await client.payments.create({ amount: "4.000000", chain: "bnb", metadata: { order_id: "SDK-7" } });
    const found = await client.search({ query: "metadata[order_id]:SDK-7", limit: 5 });
    expect(found.data.map((o) => [o.object, o.id])).toEqual([["payment", payment.id]]);

    // Exports: JSON lines object by object equal the list; CSV as text, with the service's file name.
    const lines = await client.exports.balanceTransactions({ chain: "bnb", format: "jsonl" });
    const exported: Sdk.BalanceTransaction[] = [];
    for await (const t of lines.objects()) exported.push(t);
    expect(exported).toEqual(await client.balanceTransactions.list({ chain: "bnb" }).toArray());
    const csv = await client.exports.payments({ metadata: { order_id: "SDK-7" } });
    expect(csv.filename).toMatch(/^payments-sandbox-\d{4}-\d{2}-\d{2}\.csv$/);
    expect(csv.contentType).toBe("text/csv; charset=utf-8");
    const rows = (await csv.text()).trimEnd().split("\n");
    expect(rows).toHaveLength(2);
    expect(rows[0]).toMatch(/^id,created_at,status,chain,amount,/);
    expect(rows[1]).toMatch(new RegExp(`^${payment.id},`));
    expect(() => csv.objects()).toThrow(TypeError);
  });
});

describe("retries", () => {
  it("a POST whose answer was lost is sent again with the same Idempotency-Key and executed once", async () => {
    const merchant = await newMerchant();
    const proxy = await startProxy(base(), (_, i) => (i === 0 ? "forward-then-drop" : "forward"));
    try {
      const client = new sdk.Client(merchant.sandboxKey, { baseUrl: proxy.url });
      const payment = await client.payments.create({ amount: "4.000000", chain: "polygon" });
      const [lost, retried] = proxy.seen;
      expect(proxy.seen).toHaveLength(2);
      expect(lost!.headers["idempotency-key"]).toMatch(UUID);
      expect(retried!.headers["idempotency-key"]).toBe(lost!.headers["idempotency-key"]);
      expect(JSON.parse(lost!.upstream!.body).id).toBe(payment.id); // the lost answer had created it
      expect(retried!.upstream!.headers.get("idempotent-replayed")).toBe("true");
      expect(payment.lastResponse).toMatchObject({ idempotentReplayed: true, attempts: 2 });
      expect((await client.payments.list()).data.map((p) => p.id)).toEqual([payment.id]);

      // A key of the caller's own: the second call is the first one's answer.
      const idempotencyKey = `order-${randomUUID()}`;
      const a = await client.payments.create({ amount: "5.000000" }, { idempotencyKey });
      const b = await client.payments.create({ amount: "5.000000" }, { idempotencyKey });
      expect(proxy.seen.at(-1)!.headers["idempotency-key"]).toBe(idempotencyKey);
      expect(b).toEqual(a);
      expect([a.lastResponse.idempotentReplayed, b.lastResponse.idempotentReplayed]).toEqual([false, true]);
    } finally {
      await proxy.close();
    }
  });

  it("a 429 is thrown as rate_limit_exceeded with maxRetries 0, and otherwise retried after Retry-After", async () => {
    const merchant = await newMerchant();
    const headers = { authorization: `Bearer ${merchant.sandboxKey}` };
    for (let i = 0; i < 10; i++) expect((await fetch(`${base()}/v1/payouts`, { headers })).status).toBe(200);
    const impatient = new sdk.Client(merchant.sandboxKey, { baseUrl: base(), maxRetries: 0 });
    const limited = await rejection(impatient.payouts.list());
    expect(limited).toBeInstanceOf(sdk.RateLimitError);
    expect(limited).toMatchObject({ type: "rate_limit_exceeded", status: 429 });
    expect(limited.retryAfterSeconds).toBeGreaterThanOrEqual(1);
    expect(limited.requestId).toMatch(REQUEST_ID);

    const busy = envelope("rate_limit_exceeded", 429, "Too many requests; retry in 1 s.");
    const proxy = await startProxy(base(), (_, i) =>
      i === 0 ? { status: 429, headers: { "retry-after": "1" }, body: busy } : "forward",
    );
    try {
      const started = performance.now();
      const balances = await new sdk.Client(merchant.sandboxKey, { baseUrl: proxy.url }).balances.list();
      const elapsed = performance.now() - started;
      expect(balances.data).toHaveLength(5);
      expect(balances.lastResponse.attempts).toBe(2);
      expect(proxy.seen[1]!.at - proxy.seen[0]!.at).toBeGreaterThanOrEqual(995);
      expect(elapsed).toBeLessThan(2_500);
    } finally {
      await proxy.close();
    }
    // An export is retried as any call until its answer's headers arrive.
    const again = await startProxy(base(), (_, i) =>
      i === 0 ? { status: 429, headers: { "retry-after": "1" }, body: busy } : "forward",
    );
    try {
      const file = await new sdk.Client(merchant.sandboxKey, { baseUrl: again.url }).exports.payouts();
      expect((await file.text()).split("\n")[0]).toMatch(/^id,created_at,status,chain,amount,/);
      expect(again.seen.map((r) => [r.path, r.upstream?.status])).toEqual([
        ["/v1/exports/payouts", undefined],
        ["/v1/exports/payouts", 200],
      ]);
    } finally {
      await again.close();
    }
  });

  it("5xx are retried up to maxRetries with one Idempotency-Key; no answer at all is a ConnectionError", async () => {
    const merchant = await newMerchant();
    const down = envelope("internal_server_error", 500, "Internal error.");
    const proxy = await startProxy(base(), () => ({ status: 500, body: down }));
    try {
      const client = new sdk.Client(merchant.sandboxKey, { baseUrl: proxy.url, maxRetries: 2 });
      const failed = await rejection(client.payments.create({ amount: "1.000000" }));
      expect(failed).toBeInstanceOf(sdk.InternalServerError);
      expect(proxy.seen).toHaveLength(3);
      expect(new Set(proxy.seen.map((r) => r.headers["idempotency-key"])).size).toBe(1);
    } finally {
      await proxy.close();
    }
    const port = await closedPort();
    const nowhere = new sdk.Client(merchant.sandboxKey, { baseUrl: `http://127.0.0.1:${port}`, maxRetries: 1 });
    const unreachable = await rejection(nowhere.balances.list());
    expect(unreachable).toBeInstanceOf(sdk.ConnectionError);
    expect(unreachable.attempts).toBe(2);
  });
});

describe("webhooks", () => {
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let worker: JobRunner;
  beforeAll(async () => {
    receiver = await startReceiver();
    worker = await startWorker(getPool(), { concurrency: 4 });
  });
  afterAll(async () => {
    await receiver?.close();
    await worker?.stop();
  });

  it(
    "constructEvent verifies a real delivery and refuses a tampered body, " + "a wrong secret, an old timestamp",
    async () => {
      const client = await clientFor();
      const endpoint = await client.webhookEndpoints.create({
        url: receiver.url("/sdk"),
        events: ["payment.awaiting_payment"],
      });
      expect(endpoint.secret).toMatch(/^whsec_/);
      const payment = await client.payments.create({ amount: "6.000000", chain: "eth" });
      const hit = await waitFor(() => receiver.at("/sdk")[0]);
      const header = hit.headers["service-signature"] as string;

      const event = sdk.webhooks.constructEvent(hit.body, header, endpoint.secret);
      expect(event.type).toBe("payment.awaiting_payment");
      expect(event.data.object).toEqual(payment);
      expect(await client.events.retrieve(event.id)).toEqual(event);
      expect(client.webhooks.constructEvent(Buffer.from(hit.body), header, endpoint.secret).id).toBe(event.id);

      const refusal = (body: string, value: string | undefined, secret = endpoint.secret) => {
        try {
          sdk.constructEvent(body, value, secret);
          return "accepted";
        } catch (e) {
          expect(e).toBeInstanceOf(sdk.WebhookSignatureError);
          return (e as Sdk.WebhookSignatureError).reason;
        }
      };
      expect(refusal(hit.body.replace("6.000000", "60.000000"), header)).toBe("no_matching_signature");
      expect(refusal(hit.body, header, `whsec_${"A".repeat(32)}`)).toBe("no_matching_signature");
      const old = Math.floor(Date.now() / 1000) - 301;
      const oldV1 = createHmac("sha256", endpoint.secret).update(`${old}.${hit.body}`).digest("hex");
      expect(refusal(hit.body, `t=${old},v1=${oldV1}`)).toBe("timestamp_outside_tolerance");
      expect(sdk.constructEvent(hit.body, `t=${old},v1=${oldV1}`, endpoint.secret, 600).id).toBe(event.id);
      expect(refusal(hit.body, "v1=abc")).toBe("malformed_header");
      expect(refusal(hit.body, undefined)).toBe("missing_header");
      const [t, v1] = header.split(",");
      expect(refusal(hit.body, `${t},v1=${"0".repeat(64)},${v1}`)).toBe("accepted"); // any of several v1

      // The delivery is listed among the event's attempts once recorded.
      let attempts: Sdk.WebhookAttempt[] = [];
      for (let i = 0; i < 50 && attempts.length === 0; i++) {
        attempts = await client.events.attempts(event.id).toArray();
        if (attempts.length === 0) await new Promise((r) => setTimeout(r, 100));
      }
      expect(attempts).toMatchObject([{ endpoint_id: endpoint.id, success: true, status_code: 200 }]);
    },
  );

  it("webhook endpoints: retrieve without the secret, update, list, delete", async () => {
    const client = await clientFor();
    const created = await client.webhookEndpoints.create({ url: receiver.url("/managed") });
    const endpoint = await client.webhookEndpoints.retrieve(created.id);
    expect(endpoint).not.toHaveProperty("secret");
    expect(await client.webhookEndpoints.update(created.id, { active: false })).toMatchObject({ active: false });
    expect((await client.webhookEndpoints.list().toArray()).map((e) => e.id)).toEqual([created.id]);
    expect(await client.webhookEndpoints.del(created.id)).toEqual({
      id: created.id,
      object: "webhook_endpoint",
      deleted: true,
    });
    expect(await rejection(client.webhookEndpoints.retrieve(created.id))).toBeInstanceOf(sdk.NotFoundError);
  });
});

describe("packaging", () => {
  it("npm pack yields a tarball that installs into an empty folder and works from plain Node ESM", {
    timeout: 60_000,
  }, async () => {
    const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "sdk-pack-"));
    try {
      // A clean environment: what npx and vitest set (npm_config_local_prefix…) must not steer npm here.
      const run = (cmd: string, args: string[], cwd: string, env: Record<string, string> = {}) =>
        execFileSync(cmd, args, {
          cwd,
          encoding: "utf8",
          stdio: "pipe",
          env: { NODE_ENV: "test", PATH: process.env.PATH, HOME: os.homedir(), ...env },
        });
      const [packed] = JSON.parse(
        run("npm", ["pack", "--json", "--ignore-scripts", "--pack-destination", tmp], sdkDir),
      );
      expect(packed.name).toBe("@usdt-payments/sdk");
      const files: string[] = packed.files.map((f: { path: string }) => f.path);
      expect(files).toEqual(expect.arrayContaining(["dist/index.js", "dist/index.d.ts", "dist/generated/api.d.ts"]));
      expect(files.filter((f) => !f.startsWith("dist/")).sort()).toEqual(["README.md", "package.json"]);

      const app = path.join(tmp, "app");
      fs.mkdirSync(app);
      fs.writeFileSync(path.join(app, "package.json"), JSON.stringify({ name: "app", private: true, type: "module" }));
      run("npm", ["install", "--offline", "--no-audit", "--no-fund", path.join(tmp, packed.filename)], app);
      // No dependencies came with it.
      expect(fs.readdirSync(path.join(app, "node_modules")).filter((f) => !f.startsWith("."))).toEqual([
        "@usdt-payments",
      ]);

      const merchant = await newMerchant();
      const script = `import { Client, NotFoundError } from "@usdt-payments/sdk";
        const client = new Client(process.env.KEY, { baseUrl: process.env.BASE });
        const payment = await client.payments.create({ amount: "3.000000", chain: "tron" });
        const missing = await client.payments.retrieve("pay_nope").catch((e) => e instanceof NotFoundError);
        console.log(JSON.stringify({ id: payment.id, missing }));`;
      const out = run(process.execPath, ["--input-type=module", "-e", script], app, {
        KEY: merchant.sandboxKey,
        BASE: base(),
      });
      const { id, missing } = JSON.parse(out);
      expect(missing).toBe(true);
      const check = new sdk.Client(merchant.sandboxKey, { baseUrl: base() });
      expect(await check.payments.retrieve(id)).toMatchObject({ amount: "3.000000", chain: "tron" });

      // The types resolve through `exports` for a TypeScript consumer (NodeNext), declarations checked.
      fs.writeFileSync(path.join(app, "consumer.ts"), CONSUMER);
      const tsc = path.join(root, "node_modules/typescript/bin/tsc");
      const flags = ["--noEmit", "--strict", "--module", "nodenext", "--target", "es2022", "--lib", "es2022,dom"];
      run(process.execPath, [tsc, ...flags, "consumer.ts"], app);
    } finally {
      fs.rmSync(tmp, { recursive: true, force: true });
    }
  });
});

const ADDRESS = "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed";

const CONSUMER = `import { Client, type Payment, webhooks } from "@usdt-payments/sdk";
const client = new Client("mnt_test_sk_x", { baseUrl: "http://localhost:3000", maxRetries: 1 });
const payment: Payment = await client.payments.create({ amount: "1.000000", chain: "eth" });
const amount: string = payment.amount;
for await (const item of client.payments.list({ limit: 2 })) item.id satisfies string;
// @ts-expect-error amounts are strings
await client.payments.create({ amount: 1 });
const event = webhooks.constructEvent("{}", "t=1,v1=00", "whsec_x");
if (event.type === "payout.failed") event.data.object.to_address satisfies string;
export { amount };
`;

/** The global fetch, telling `onCall` of every request the SDK sends. */
const watchedFetch =
  (onCall: (url: string) => void): typeof fetch =>
  (url, init) => {
    onCall(String(url));
    return fetch(url, init);
  };

async function closedPort(): Promise<number> {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}
