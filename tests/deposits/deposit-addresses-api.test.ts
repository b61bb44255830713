import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { CHAIN_FAMILY } from "@/lib/chains/chains";
import { deriveAddress } from "@/lib/chains/wallets/derive-address";
import { walletSeed } from "@/lib/chains/wallets/wallet-seed";
import type { Scope } from "@/lib/identity/api-keys/scopes";
import { DEPOSIT_INDEX_START } from "@/lib/kernel/chain-ids";
import { getDb } from "@/lib/platform/db/client";
import { execute, query } from "@/lib/platform/db/query";
import { api, expectError, newKey, newMerchant, type TestMerchant } from "../helpers/api";

// Deposit addresses through the API (docs/API.md#deposit-addresses): one per customer and chain, from the pools'
// deposit range, each merchant's and mode's own; bad input is a 400 naming the field, nothing written.
let m: TestMerchant;
let other: TestMerchant;

const post = async (body: Record<string, unknown>, key = m.sandboxKey) => {
  const reply = await api("POST", "/v1/deposit_addresses", { key, body });
  expect(reply.status, reply.text).toBe(200);
  return reply.json;
};
const customer = async (key = m.sandboxKey) => {
  const reply = await api("POST", "/v1/customers", { key, body: { reference: `u-${randomBytes(4).toString("hex")}` } });
  expect(reply.status, reply.text).toBe(200);
  return reply.json.id as string;
};
const listed = async (path: string, key = m.sandboxKey): Promise<string[]> => {
  const reply = await api("GET", path, { key });
  expect(reply.status, reply.text).toBe(200);
  return reply.json.data.map((c: { id: string }) => c.id);
};
const rowsOf = async (merchantId: string) =>
  Number(
    (
      await query<{ n: string }>(getDb(), "select count(*)::text as n from deposit_addresses where merchant_id = $1", [
        merchantId,
      ])
    )[0]!.n,
  );

beforeAll(async () => {
  [m, other] = await Promise.all([newMerchant("Deposit addresses"), newMerchant("Deposit addresses, another")]);
});

describe("deposit addresses", () => {
  it("one per customer and chain: asking again (ten at once) gives the same one; another chain another", async () => {
    const cus = await customer();
    const made = await post({ chain: "eth", customer: cus, metadata: { account: "A-1" } });
    expect(made).toMatchObject({
      object: "deposit_address",
      customer: cus,
      chain: "eth",
      status: "active",
      amount_received: "0.000000",
      amount_credited: "0.000000",
      metadata: { account: "A-1" },
    });
    expect(made.id).toMatch(/^da_[0-9A-Za-z]{24}$/);
    expect(made.address).toMatch(/^0x[0-9a-fA-F]{40}$/);

    const again = await Promise.all(Array.from({ length: 10 }, () => post({ chain: "eth", customer: cus })));
    expect(new Set(again.map((a) => a.id))).toEqual(new Set([made.id]));
    expect(again[0]).toEqual(made);

    const onBnb = await post({ chain: "bnb", customer: cus });
    const onTron = await post({ chain: "tron", customer: cus });
    const onSolana = await post({ chain: "solana", customer: cus });
    expect(new Set([made.address, onBnb.address, onTron.address, onSolana.address]).size).toBe(4);
    expect(onTron.address).toMatch(/^T[1-9A-HJ-NP-Za-km-z]{33}$/);
    expect(await rowsOf(m.id)).toBeGreaterThanOrEqual(4);
    expect(await listed(`/v1/deposit_addresses?customer=${cus}`)).toEqual([onSolana.id, onTron.id, onBnb.id, made.id]);

    // Without a customer, each call makes one.
    const [a, b] = [await post({ chain: "polygon" }), await post({ chain: "polygon" })];
    expect(a.id).not.toBe(b.id);
    expect(a.address).not.toBe(b.address);
    expect(a.customer).toBeNull();
  });

  it("come from the deposit range of the HD wallet (index ≥ 2^30), derived from the mode's seed", async () => {
    const made = await Promise.all((["eth", "tron", "solana"] as const).map((chain) => post({ chain })));
    const seed = await walletSeed(getDb(), "sandbox");
    for (const a of made) {
      const [pool] = await query<{ purpose: string; derivation_index: string; deposit_address_id: string }>(
        getDb(),
        "select purpose, derivation_index::text, deposit_address_id from deposit_address_pool where address = $1",
        [a.address],
      );
      expect(pool).toMatchObject({ purpose: "deposit", deposit_address_id: a.id });
      const index = Number(pool!.derivation_index);
      expect(index).toBeGreaterThanOrEqual(DEPOSIT_INDEX_START);
      expect(deriveAddress(seed, CHAIN_FAMILY[a.chain as "eth"], index).address).toBe(a.address);
      // No payment ever had it.
      const payments = await query(getDb(), "select 1 from payments where deposit_address = $1", [a.address]);
      expect(payments).toHaveLength(0);
    }
  });

  it("are the merchant's own in one mode: another merchant or the live key finds and changes nothing", async () => {
    const cus = await customer();
    const made = await post({ chain: "eth", customer: cus });
    for (const key of [other.sandboxKey, m.liveKey]) {
      expectError(await api("GET", `/v1/deposit_addresses/${made.id}`, { key }), "not_found", 404, "id");
      expectError(
        await api("POST", `/v1/deposit_addresses/${made.id}`, { key, body: { status: "disabled" } }),
        "not_found",
        404,
        "id",
      );
      expect(await listed(`/v1/deposit_addresses?address=${made.address}`, key)).toEqual([]);
    }
    // Another merchant cannot make an address for this merchant's customer.
    expectError(
      await api("POST", "/v1/deposit_addresses", { key: other.sandboxKey, body: { chain: "eth", customer: cus } }),
      "invalid_request_error",
      400,
      "customer",
    );
    // Nor does asking for its own customer's address on the chain ever give it this one.
    const theirs = await post({ chain: "eth", customer: await customer(other.sandboxKey) }, other.sandboxKey);
    expect(theirs.address).not.toBe(made.address);
  });

  it("are found by customer, chain, status and address (any case on EVM, the T-address on Tron)", async () => {
    const cus = await customer();
    const eth = await post({ chain: "eth", customer: cus });
    const tron = await post({ chain: "tron", customer: cus });
    expect(await listed(`/v1/deposit_addresses?address=${eth.address.toLowerCase()}`)).toEqual([eth.id]);
    expect(await listed(`/v1/deposit_addresses?address=${eth.address.toUpperCase().replace("0X", "0x")}`)).toEqual([
      eth.id,
    ]);
    expect(await listed(`/v1/deposit_addresses?address=${tron.address}`)).toEqual([tron.id]);
    expect(await listed(`/v1/deposit_addresses?address=T${"1".repeat(33)}`)).toEqual([]);
    expect(await listed(`/v1/deposit_addresses?customer=${cus}&chain=tron`)).toEqual([tron.id]);

    const disabled = await api("POST", `/v1/deposit_addresses/${tron.id}`, {
      key: m.sandboxKey,
      body: { status: "disabled", metadata: { why: "closed account" } },
    });
    expect(disabled.status, disabled.text).toBe(200);
    expect(disabled.json).toEqual({ ...tron, status: "disabled", metadata: { why: "closed account" } });
    expect(await listed(`/v1/deposit_addresses?customer=${cus}&status=disabled`)).toEqual([tron.id]);
    expect(await listed(`/v1/deposit_addresses?customer=${cus}&status=active`)).toEqual([eth.id]);
    // Asking for the customer's Tron address again gives the disabled one, as it is.
    expect(await post({ chain: "tron", customer: cus })).toMatchObject({ id: tron.id, status: "disabled" });
  });

  it("refuse bad input with a 400 naming the field, writing nothing", async () => {
    const before = await rowsOf(m.id);
    const bad: [Record<string, unknown>, string][] = [
      [{}, "chain"],
      [{ chain: "doge" }, "chain"],
      [{ chain: "eth", customer: "cus_nobody" }, "customer"],
      [{ chain: "eth", customer: 7 }, "customer"],
      [{ chain: "eth", metadata: { ["k".repeat(41)]: "x" } }, `metadata.${"k".repeat(41)}`],
      [{ chain: "eth", address: "0xabc" }, "address"],
    ];
    for (const [body, param] of bad) {
      const reply = await api("POST", "/v1/deposit_addresses", { key: m.sandboxKey, body });
      expect(reply.json?.error?.param, reply.text).toBe(param);
      expectError(reply, "invalid_request_error", 400, param);
    }
    const made = await post({ chain: "eth" });
    expectError(
      await api("POST", `/v1/deposit_addresses/${made.id}`, { key: m.sandboxKey, body: { status: "deleted" } }),
      "invalid_request_error",
      400,
      "status",
    );
    expectError(
      await api("GET", "/v1/deposit_addresses?chain=doge", { key: m.sandboxKey }),
      "invalid_request_error",
      400,
      "chain",
    );
    expectError(
      await api("GET", "/v1/deposits?status=credited", { key: m.sandboxKey }),
      "invalid_request_error",
      400,
      "status",
    );
    expectError(await api("GET", "/v1/deposits/dep_nothing", { key: m.sandboxKey }), "not_found", 404, "id");
    const rescan = (body: Record<string, unknown>) => api("POST", "/v1/deposits/rescan", { key: m.sandboxKey, body });
    expectError(await rescan({ chain: "eth", tx_hash: "0x1234" }), "invalid_request_error", 400, "tx_hash");
    expectError(
      await rescan({ chain: "tron", tx_hash: `0x${"g".repeat(64)}` }),
      "invalid_request_error",
      400,
      "tx_hash",
    );
    expectError(await rescan({ chain: "solana", tx_hash: "0".repeat(88) }), "invalid_request_error", 400, "tx_hash");
    expectError(await rescan({ chain: "solana", tx_hash: "1".repeat(88) }), "invalid_request_error", 400, "tx_hash");
    expectError(await rescan({ chain: "doge", tx_hash: `0x${"a".repeat(64)}` }), "invalid_request_error", 400, "chain");
    // A well-formed id the chain has never mined.
    expectError(
      await rescan({ chain: "eth", tx_hash: `0x${"ab".repeat(32)}` }),
      "invalid_request_error",
      400,
      "tx_hash",
    );
    expect(await rowsOf(m.id)).toBe(before + 1);
  });

  it("need the deposits scopes: a read key lists but cannot create or disable; other scopes see nothing", async () => {
    const made = await post({ chain: "eth" });
    const reader = (await newKey(m.id, "sandbox", ["deposits:read"])).secret;
    expect(await listed(`/v1/deposit_addresses?address=${made.address}`, reader)).toEqual([made.id]);
    expect((await api("GET", "/v1/deposits", { key: reader })).status).toBe(200);
    expectError(await api("POST", "/v1/deposit_addresses", { key: reader, body: { chain: "eth" } }), "forbidden", 403);
    expectError(
      await api("POST", `/v1/deposit_addresses/${made.id}`, { key: reader, body: { status: "disabled" } }),
      "forbidden",
      403,
    );
    const payments = (await newKey(m.id, "sandbox", ["payments:write", "customers:write"])).secret;
    expectError(await api("GET", `/v1/deposit_addresses/${made.id}`, { key: payments }), "forbidden", 403);
    expectError(await api("GET", "/v1/deposits", { key: payments }), "forbidden", 403);
    expect((await api("GET", `/v1/deposit_addresses/${made.id}`, { key: m.sandboxKey })).json.status).toBe("active");
  });

  it("migration 0047 gives full-access keys the deposits' scopes, and restricted keys nothing", async () => {
    const families = ["payments", "payment_links", "balances", "payouts", "refunds", "customers", "webhooks", "events"];
    const before = families.flatMap((f) => [`${f}:read`, `${f}:write`]) as Scope[];
    const full = await newKey(m.id, "sandbox", before);
    const restricted = await newKey(m.id, "sandbox", ["payments:read", "customers:write"]);
    const migration = readFileSync(path.resolve("db/migrations/0047_deposit_addresses.sql"), "utf8");
    await execute(getDb(), migration.slice(migration.lastIndexOf("--> statement-breakpoint") + 24));
    const scopesOf = async (id: string) =>
      (await query<{ scopes: string[] }>(getDb(), "select scopes from api_keys where id = $1", [id]))[0]!.scopes;
    expect(await scopesOf(full.id)).toEqual([...before, "deposits:read", "deposits:write"]);
    expect(await scopesOf(restricted.id)).toEqual(["payments:read", "customers:write"]);
    expect((await api("GET", "/v1/deposits", { key: full.secret })).status).toBe(200);
  });

  it("a customer whose address holds a deposit not yet confirmed cannot be deleted until it is", async () => {
    const cus = await customer();
    const made = await post({ chain: "eth", customer: cus });
    const deposit = `dep_${randomBytes(8).toString("hex")}`;
    await execute(
      getDb(),
      `insert into deposits (id, deposit_address_id, merchant_id, mode, chain, kind, status, tx_hash, log_index,
         position, block_number, block_hash, block_time, to_address, raw_amount, amount_units)
       values ($1, $2, $3, 'sandbox', 'eth', 'address', 'pending', $4, 0, 0, 1, $5, now(), $6, 1000000, 1000000)`,
      [
        deposit,
        made.id,
        m.id,
        `0x${randomBytes(32).toString("hex")}`,
        `0x${randomBytes(32).toString("hex")}`,
        made.address,
      ],
    );
    expectError(await api("DELETE", `/v1/customers/${cus}`, { key: m.sandboxKey }), "invalid_request_error", 400, "id");
    expect((await api("GET", `/v1/customers/${cus}`, { key: m.sandboxKey })).status).toBe(200);
    await execute(getDb(), "update deposits set status = 'credited', credited_at = now() where id = $1", [deposit]);
    const deleted = await api("DELETE", `/v1/customers/${cus}`, { key: m.sandboxKey });
    expect(deleted.status, deleted.text).toBe(200);
    // The address stays (its deposits name it), still the merchant's.
    expect((await api("GET", `/v1/deposit_addresses/${made.id}`, { key: m.sandboxKey })).json.customer).toBe(cus);
  });
});
