import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createChainAdapter } from "@/lib/chains/connect/chain-families";
import { fromUsdtUnits } from "@/lib/chains/chain-adapter";
import { resetConfig } from "@/lib/platform/config/env";
import { getDb, inTransaction } from "@/lib/platform/db/client";
import { query } from "@/lib/platform/db/query";
import { ALL_SCOPES, type Scope } from "@/lib/identity/api-keys/scopes";
import { adjustBalance } from "@/lib/books/ledger/adjust-balance";
import { createPayout } from "@/lib/money-out/payouts/create-payout";
import { executePayout, executePayoutRound } from "@/lib/money-out/payouts/execute-payout";
import { createPayoutBody } from "@/lib/money-out/payouts/schemas";
import { sandboxChainOps } from "@/lib/chains/connect/chain-families";
import { roleAddress } from "@/lib/chains/wallets/role-address";
import { api, expectError, newKey, newMerchant, type TestMerchant } from "../helpers/api";
import { sandboxChain } from "../helpers/chains";
import { startReceiver } from "../helpers/webhook-receiver";

// Controls that must refuse (issue 24): each test here fails if its control is taken out of lib/.

const fresh = () => privateKeyToAccount(generatePrivateKey()).address;
/** A key holding every scope there is except `missing` (write implies read, so the family's read stays). */
const keyWithout = (m: TestMerchant, missing: Scope) =>
  newKey(
    m.id,
    "sandbox",
    ALL_SCOPES.filter((s) => s !== missing),
  ).then((k) => k.secret);
const fund = (merchantId: string, chain: "bnb" | "eth" | "polygon", usdt: bigint) =>
  adjustBalance(getDb(), { merchantId, mode: "sandbox", chain, amount: usdt * 1_000_000n, reason: "test funding" });
const balance = async (key: string, chain: string) =>
  (await api("GET", "/v1/balances", { key })).json.data.find((b: { chain: string }) => b.chain === chain);
const list = async (key: string, path: string) => (await api("GET", path, { key })).json.data as unknown[];
const tokenOn = async (chain: "polygon", address: string) =>
  (await createChainAdapter(await sandboxChain(chain)).balances(address)).token;

describe("a key without the write scope is refused (403) and nothing is written", () => {
  it("POST /v1/payouts without payouts:write: no payout, nothing reserved", async () => {
    const m = await newMerchant();
    await fund(m.id, "eth", 10n);
    const key = await keyWithout(m, "payouts:write");
    const refused = await api("POST", "/v1/payouts", {
      key,
      body: { chain: "eth", to_address: fresh(), amount: "4.000000" },
    });
    expect(expectError(refused, "forbidden", 403).message).toContain("payouts:write");
    // The key may still read payouts (payouts:read): it sees none, and the balance is whole.
    expect(await list(key, "/v1/payouts")).toEqual([]);
    expect(await list(m.sandboxKey, "/v1/payouts")).toEqual([]);
    expect(await balance(m.sandboxKey, "eth")).toMatchObject({ available: "10.000000", in_flight: "0.000000" });
  });

  it("POST /v1/payments, /v1/payment-links, /v1/webhooks without their write scope: nothing created", async () => {
    const m = await newMerchant();
    const cases = [
      ["/v1/payments", "payments:write", { amount: "1.000000", chain: "polygon" }],
      ["/v1/payment-links", "payment_links:write", { amount: "1.000000" }],
      ["/v1/webhooks", "webhooks:write", { url: "http://127.0.0.1:9/hook" }],
    ] as const;
    for (const [path, scope, body] of cases) {
      const refused = await api("POST", path, { key: await keyWithout(m, scope), body });
      expect(expectError(refused, "forbidden", 403).message, path).toContain(scope);
      expect(await list(m.sandboxKey, path), path).toEqual([]);
    }
  });

  it("updating or deleting a webhook endpoint without webhooks:write: it stays as it was", async () => {
    const m = await newMerchant();
    const made = await api("POST", "/v1/webhooks", { key: m.sandboxKey, body: { url: "http://127.0.0.1:9/a" } });
    expect(made.status, made.text).toBe(200);
    const key = await keyWithout(m, "webhooks:write");
    const path = `/v1/webhooks/${made.json.id}`;
    const update = await api("POST", path, { key, body: { url: "http://127.0.0.1:9/b", active: false } });
    expectError(update, "forbidden", 403);
    expectError(await api("DELETE", path, { key }), "forbidden", 403);
    const now = await api("GET", path, { key: m.sandboxKey });
    expect(now.status).toBe(200);
    const { secret, ...shown } = made.json; // the signing secret is shown once, at creation
    expect(secret).toBeTruthy();
    expect(now.json).toEqual(shown);
  });

  it(
    "replaying a payment's webhook, simulating a payment, the faucet and mining without payments:write: " +
      "nothing sent or moved",
    async () => {
      const m = await newMerchant();
      const receiver = await startReceiver();
      try {
        const payment = await api("POST", "/v1/payments", {
          key: m.sandboxKey,
          body: { amount: "1.000000", chain: "polygon" },
        });
        expect(payment.status, payment.text).toBe(200);
        // Made after the payment, so its payment.created (delivered by any jobs worker of the run) is not for
        // this endpoint: only a replay could reach it.
        const hook = await api("POST", "/v1/webhooks", {
          key: m.sandboxKey,
          body: { url: receiver.url("/replay") },
        });
        const key = await keyWithout(m, "payments:write");
        const polygon = await sandboxChain("polygon");
        const headBefore = await createChainAdapter(polygon).head();
        const target = fresh();
        for (const [path, body] of [
          [`/v1/payments/${payment.json.id}/replay`, {}],
          [`/v1/sandbox/payments/${payment.json.id}/simulate`, {}],
          ["/v1/sandbox/faucet", { chain: "polygon", address: target, amount: "5.000000" }],
          ["/v1/sandbox/chains/polygon/mine", { blocks: 1000 }],
        ] as const) {
          const refused = await api("POST", path, { key, body });
          expect(expectError(refused, "forbidden", 403).message, path).toContain("payments:write");
        }
        // No delivery was sent or recorded, the payment is unpaid, the faucet sent nothing, no blocks were made.
        expect(receiver.at("/replay")).toEqual([]);
        expect(await list(m.sandboxKey, `/v1/webhooks/${hook.json.id}/attempts`)).toEqual([]);
        const now = await api("GET", `/v1/payments/${payment.json.id}`, { key: m.sandboxKey });
        expect(now.json).toMatchObject({ status: "awaiting_payment", amount_received: "0.000000" });
        expect(await tokenOn("polygon", payment.json.deposit_address)).toBe(0n);
        expect(await tokenOn("polygon", target)).toBe(0n);
        expect((await createChainAdapter(polygon).head()) - headBefore).toBeLessThan(1000);
      } finally {
        await receiver.close();
      }
    },
  );
});

// PAYOUT_DENYLIST_FILE, read by this process's executePayout (the worker's job, run here in-process). bnb: no
// other suite file executes payouts there, so the treasury this file funds is its own.
describe("PAYOUT_DENYLIST_FILE", () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "denylist-"));
  const file = path.join(dir, "denylist.txt");
  let m: TestMerchant;
  let before: string | undefined;

  beforeAll(async () => {
    before = process.env.PAYOUT_DENYLIST_FILE;
    process.env.PAYOUT_DENYLIST_FILE = file;
    resetConfig();
    m = await newMerchant("Deny-list file");
    await fund(m.id, "bnb", 100n);
    // The treasury holds USDT, so a payout nothing denies is queued for signing at once (not left waiting).
    const bnb = await sandboxChain("bnb");
    const treasury = await roleAddress(getDb(), "sandbox", "bnb", "treasury");
    await (await sandboxChainOps(bnb)).fund(treasury.address, fromUsdtUnits(100_000_000n, bnb.decimals));
    const adapter = createChainAdapter(bnb);
    for (let i = 0; (await adapter.balances(treasury.address)).token === 0n; i++) {
      if (i > 100) throw new Error("the bnb treasury was never funded");
      await new Promise((r) => setTimeout(r, 100));
    }
  }, 60_000);
  afterAll(() => {
    if (before === undefined) delete process.env.PAYOUT_DENYLIST_FILE;
    else process.env.PAYOUT_DENYLIST_FILE = before;
    resetConfig();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  /**
   * A payout created as the API creates it, then executed once as the worker would: its status and transfer.
   * Its queued job is taken out in the creating transaction: a jobs worker another suite file runs (without
   * this file's deny-list) would otherwise execute it first.
   */
  async function payTo(to: string) {
    const payout = await inTransaction(getDb(), async (tx) => {
      const row = await createPayout(
        tx,
        { merchantId: m.id, mode: "sandbox" },
        createPayoutBody.parse({ chain: "bnb", to_address: to, amount: "1.000000" }),
        { keyId: m.sandboxKeyId },
      );
      await query(tx, "select graphile_worker.remove_job($1)", [`execute_payout:${row.id}`]);
      return row;
    });
    await executePayout(getDb(), payout.id);
    const [row] = await query<{ status: string; failure_code: string | null; outbound_id: string | null }>(
      getDb(),
      "select status, failure_code, outbound_id from payouts where id = $1",
      [payout.id],
    );
    return { id: payout.id, ...row! };
  }
  const blocked = { status: "blocked", failure_code: "denied_destination", outbound_id: null };
  const held = { status: "pending", failure_code: null, outbound_id: null };

  it(
    "denies what it lists (any case, with or without a chain, " +
      "comments ignored); an edit applies to the next payout",
    async () => {
      const [listed, onlyEth, later] = [fresh(), fresh(), fresh()];
      fs.writeFileSync(
        file,
        `# the operator's own list\n${listed.toLowerCase()}   # seen in a phishing report\n\neth ${onlyEth}\n`,
      );
      const before = await balance(m.sandboxKey, "bnb");
      expect(await payTo(listed)).toMatchObject(blocked);
      // The payout's amount is back in available.
      expect(await balance(m.sandboxKey, "bnb")).toEqual(before);
      // An entry for eth does not deny the address on bnb: that payout is queued for signing.
      expect((await payTo(onlyEth)).outbound_id).toMatch(/^otx_/);
      // The operator adds an address: no restart, the next payout to it is blocked.
      fs.appendFileSync(file, `bnb ${later}\n`);
      expect(await payTo(later)).toMatchObject(blocked);
      // And removes one: payouts to it go out again.
      fs.writeFileSync(file, `bnb ${later}\n`);
      expect((await payTo(listed)).outbound_id).toMatch(/^otx_/);
    },
  );

  it(
    "missing, or with a line it cannot read, it holds every payout (fail closed) " + "until it is readable again",
    async () => {
      const to = fresh();
      const inFlight = Number((await balance(m.sandboxKey, "bnb")).in_flight);
      fs.rmSync(file, { force: true });
      const missing = await payTo(to);
      expect(missing).toMatchObject(held);
      // A misspelt chain would otherwise make the line deny nothing: the whole file is refused.
      fs.writeFileSync(file, `ethereum ${to}\n`);
      await executePayout(getDb(), missing.id);
      expect((await payTo(fresh())).outbound_id).toBeNull();
      // The payout waits in pending, its amount still in flight, its execution tried again shortly.
      expect(Number((await balance(m.sandboxKey, "bnb")).in_flight)).toBe(inFlight + 2);
      const [retry] = await query<{ run_at: Date }>(getDb(), "select run_at from graphile_worker.jobs where key = $1", [
        `execute_payout:${missing.id}`,
      ]);
      expect(retry!.run_at.getTime()).toBeGreaterThan(Date.now());
      // Taken back out, so no other file's jobs worker (without this deny-list) runs it meanwhile.
      await query(getDb(), "select graphile_worker.remove_job($1)", [`execute_payout:${missing.id}`]);
      // Fixed, the held payout is decided: blocked, refunded.
      fs.writeFileSync(file, `bnb ${to}\n`);
      await executePayout(getDb(), missing.id);
      const [row] = await query(getDb(), "select status, failure_code from payouts where id = $1", [missing.id]);
      expect(row).toEqual({ status: "blocked", failure_code: "denied_destination" });
    },
  );
});

// The execute_payout jobs of one chain that run together in a worker share a round (lib/money-out/payouts/
// execute-payout.ts): one read of the treasury, one transaction under its lock. bnb, as above.
describe("payouts taken a step together", () => {
  let m: TestMerchant;

  beforeAll(async () => {
    m = await newMerchant("Payouts together");
    await fund(m.id, "bnb", 100n);
    const bnb = await sandboxChain("bnb");
    const treasury = await roleAddress(getDb(), "sandbox", "bnb", "treasury");
    const adapter = createChainAdapter(bnb);
    const held = (await adapter.balances(treasury.address)).token;
    await (await sandboxChainOps(bnb)).fund(treasury.address, fromUsdtUnits(100_000_000n, bnb.decimals));
    for (let i = 0; (await adapter.balances(treasury.address)).token === held; i++) {
      if (i > 100) throw new Error("the bnb treasury was never funded");
      await new Promise((r) => setTimeout(r, 100));
    }
  }, 60_000);

  /** Payouts created as the API creates them; their jobs taken out, so they are executed here and nowhere else. */
  async function created(n: number) {
    const ids: string[] = [];
    for (let i = 0; i < n; i++)
      ids.push(
        await inTransaction(getDb(), async (tx) => {
          const row = await createPayout(
            tx,
            { merchantId: m.id, mode: "sandbox" },
            createPayoutBody.parse({ chain: "bnb", to_address: fresh(), amount: "1.000000" }),
            { keyId: m.sandboxKeyId },
          );
          await query(tx, "select graphile_worker.remove_job($1)", [`execute_payout:${row.id}`]);
          return row.id;
        }),
      );
    return ids;
  }
  const rowsOf = (ids: string[]) =>
    query<{ id: string; status: string; outbound_id: string | null; updated_at: Date }>(
      getDb(),
      "select id, status, outbound_id, updated_at from payouts where id = any($1) order by id",
      [ids],
    );
  const queued = { status: "fulfilled", value: "queued" };

  it("are queued in one transaction: each its own transfer, all at one database instant", async () => {
    const ids = await created(5);
    const steps = await executePayoutRound(getDb(), "sandbox", "bnb", ids);
    expect(ids.map((id) => steps.get(id))).toEqual(Array(5).fill(queued));
    const rows = await rowsOf(ids);
    expect(new Set(rows.map((r) => r.outbound_id)).size).toBe(5);
    // now() is the transaction's start: one value for all five.
    expect(new Set(rows.map((r) => r.updated_at.getTime())).size).toBe(1);
  });

  it(
    "one payout whose step fails fails alone: the others are queued, " + "and it goes through once the fault is gone",
    async () => {
      const ids = await created(3);
      const bad = ids[1]!;
      const trigger = `"test_refuse_${bad}"`;
      // A real fault in the database, for this payout only: its queueing update is refused.
      await query(
        getDb(),
        `create or replace function test_refuse_payout_update() returns trigger language plpgsql as
       $$ begin raise exception 'refused by the test'; end $$`,
      );
      await query(
        getDb(),
        `create trigger ${trigger} before update on payouts for each row
       when (new.id = '${bad}' and new.outbound_id is not null) execute function test_refuse_payout_update()`,
      );
      try {
        const steps = await executePayoutRound(getDb(), "sandbox", "bnb", ids);
        expect(steps.get(ids[0]!)).toEqual(queued);
        expect(steps.get(ids[2]!)).toEqual(queued);
        expect(steps.get(bad)).toMatchObject({ status: "rejected", reason: { message: "refused by the test" } });
        const rows = await rowsOf(ids);
        expect(rows.find((r) => r.id === bad)).toMatchObject({ status: "pending", outbound_id: null });
        expect(rows.filter((r) => r.outbound_id).length).toBe(2);
      } finally {
        await query(getDb(), `drop trigger if exists ${trigger} on payouts`);
      }
      // Its job's retry, once the fault is gone.
      expect(await executePayout(getDb(), bad)).toBe("queued");
    },
  );
});
