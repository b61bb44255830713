import { describe, expect, it } from "vitest";
import { adjustBalance } from "@/lib/books/ledger/adjust-balance";
import { checkLedgerConsistency } from "@/lib/books/ledger/check-ledger-consistency";
import { applyRefundPolicy } from "@/lib/money-out/refunds/apply-refund-policy";
import { expireRefundClaim } from "@/lib/money-out/refunds/expire-refund-claim";
import { setRefundPolicy } from "@/lib/money-out/refunds/refund-policy";
import { CHAINS } from "@/lib/kernel/chain-ids";
import { formatAmount } from "@/lib/kernel/amount";
import { refundMinimum } from "@/lib/money-out/refunds/refund-minimum";
import { loadConfig } from "@/lib/platform/config/env";
import { getDb } from "@/lib/platform/db/client";
import { execute, query } from "@/lib/platform/db/query";
import { api, expectError, newKey, newMerchant, type TestMerchant } from "../helpers/api";
import { creditedPayment, PAYER } from "../helpers/credited-payment";

const OTHER_PAYER = "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC";
const _units = (amount: string) => BigInt(amount.replace(".", ""));

const ethBalance = async (m: TestMerchant) =>
  (await api("GET", "/v1/balances", { key: m.sandboxKey })).json.data.find((b: { chain: string }) => b.chain === "eth");
const refundsOf = (paymentId: string) =>
  query<{ id: string; status: string }>(getDb(), "select id, status from refunds where payment_id = $1", [paymentId]);
const refund = (m: TestMerchant, body: Record<string, unknown>, key = m.sandboxKey) =>
  api("POST", "/v1/refunds", { key, body });

describe("POST /v1/refunds", () => {
  it(
    "to an address: pending at once, available debited into in_flight, " +
      "the payment's amount_refunded, refund.created",
    async () => {
      const m = await newMerchant();
      const paymentId = await creditedPayment(m, ["10.000000"]);
      const before = await ethBalance(m);
      const created = await refund(m, {
        payment: paymentId,
        amount: "2.500000",
        destination: "address",
        to_address: OTHER_PAYER,
        reason: "requested_by_customer",
        metadata: { ticket: "T-1" },
      });
      expect(created.status, created.text).toBe(200);
      expect(created.json).toMatchObject({
        object: "refund",
        payment: paymentId,
        amount: "2.500000",
        currency: "USDT",
        chain: "eth",
        status: "pending",
        destination: "address",
        to_address: OTHER_PAYER,
        claim_url: null,
        tx_hash: null,
        reason: "requested_by_customer",
        metadata: { ticket: "T-1" },
        failure_code: null,
        expires_at: null,
      });
      expect(created.json.id).toMatch(/^re_/);
      expect(before).toMatchObject({ available: "10.000000", in_flight: "0.000000" });
      expect(await ethBalance(m)).toMatchObject({ available: "7.500000", in_flight: "2.500000" });
      const payment = (await api("GET", `/v1/payments/${paymentId}`, { key: m.sandboxKey })).json;
      expect(payment).toMatchObject({ status: "confirmed", amount_received: "10.000000", amount_refunded: "2.500000" });
      const got = await api("GET", `/v1/refunds/${created.json.id}`, { key: m.sandboxKey });
      expect(got.json).toEqual(created.json);
      const events = (await api("GET", "/v1/events?type=refund.created", { key: m.sandboxKey })).json.data;
      expect(events.map((e: { data: { object: { id: string } } }) => e.data.object.id)).toEqual([created.json.id]);
      // The rest, by default: everything still refundable.
      const rest = await refund(m, { payment: paymentId, destination: "sender" });
      expect(rest.status, rest.text).toBe(200);
      expect(rest.json).toMatchObject({ amount: "7.500000", destination: "sender", to_address: PAYER });
      expect((await ethBalance(m)).available).toBe("0.000000");
      expect(await checkLedgerConsistency(getDb(), m.id)).toEqual([]);
    },
  );

  it(
    "claim (the default): requires_action with a claim_url and a 7-day window; " +
      "cancel returns the money and kills the link",
    async () => {
      const m = await newMerchant();
      const paymentId = await creditedPayment(m, ["4.000000"]);
      const created = await refund(m, { payment: paymentId, amount: "1.000000", reason: "overpayment" });
      expect(created.status, created.text).toBe(200);
      expect(created.json).toMatchObject({ status: "requires_action", destination: "claim", to_address: null });
      expect(created.json.claim_url).toMatch(/\/refund\/[A-Za-z0-9_-]{43}$/);
      const window = Date.parse(created.json.expires_at) - Date.parse(created.json.created_at);
      expect(Math.abs(window - 7 * 24 * 3600_000)).toBeLessThan(5_000);
      const types = (await api("GET", "/v1/events", { key: m.sandboxKey })).json.data.map(
        (e: { type: string }) => e.type,
      );
      expect(types).toEqual(expect.arrayContaining(["refund.created", "refund.requires_action"]));
      // The token is stored hashed (and sealed), never in clear.
      const token = created.json.claim_url.split("/").pop();
      const [stored] = await query<{ row: string }>(
        getDb(),
        "select row_to_json(r)::text as row from refunds r where id = $1",
        [created.json.id],
      );
      expect(stored!.row).not.toContain(token);
      expect((await api("GET", `/v1/refunds/${created.json.id}`, { key: m.sandboxKey })).json.claim_url).toBe(
        created.json.claim_url,
      );

      const canceled = await api("POST", `/v1/refunds/${created.json.id}/cancel`, { key: m.sandboxKey, body: {} });
      expect(canceled.status, canceled.text).toBe(200);
      expect(canceled.json).toMatchObject({
        status: "canceled",
        claim_url: null,
        failure_code: "canceled_by_merchant",
      });
      expect((await ethBalance(m)).available).toBe("4.000000");
      const payment = (await api("GET", `/v1/payments/${paymentId}`, { key: m.sandboxKey })).json;
      expect(payment.amount_refunded).toBe("0.000000");
      const [row] = await query<{ hash: string | null }>(
        getDb(),
        "select claim_token_hash as hash from refunds where id = $1",
        [created.json.id],
      );
      expect(row!.hash).toBeNull();
      expectError(
        await api("POST", `/v1/refunds/${created.json.id}/cancel`, { key: m.sandboxKey, body: {} }),
        "invalid_request_error",
        400,
      );
      const listed = await api("GET", `/v1/refunds?payment=${paymentId}&status=canceled`, { key: m.sandboxKey });
      expect(listed.json.data.map((r: { id: string }) => r.id)).toEqual([created.json.id]);
      expect((await api("GET", "/v1/refunds?status=pending", { key: m.sandboxKey })).json.data).toEqual([]);
      expect(await checkLedgerConsistency(getDb(), m.id)).toEqual([]);
    },
  );

  it("an unclaimed refund is canceled when its window ends (claim_expired), the amount back in available", async () => {
    const m = await newMerchant();
    const paymentId = await creditedPayment(m, ["3.000000"]);
    const created = (await refund(m, { payment: paymentId })).json;
    expect(await expireRefundClaim(getDb(), created.id)).toBe(false); // not yet: it is enqueued again for the end
    const [again] = await query<{ run_at: Date }>(getDb(), "select run_at from graphile_worker.jobs where key = $1", [
      `expire_refund_claim:${created.id}`,
    ]);
    expect(again!.run_at.toISOString()).toBe(created.expires_at);
    await execute(getDb(), "update refunds set expires_at = now() - interval '1 second' where id = $1", [created.id]);
    expect(await expireRefundClaim(getDb(), created.id)).toBe(true);
    const after = (await api("GET", `/v1/refunds/${created.id}`, { key: m.sandboxKey })).json;
    expect(after).toMatchObject({ status: "canceled", failure_code: "claim_expired", claim_url: null });
    expect((await ethBalance(m)).available).toBe("3.000000");
    const types = (await api("GET", "/v1/events?type=refund.canceled", { key: m.sandboxKey })).json.data;
    expect(types).toHaveLength(1);
  });
});

describe("POST /v1/refunds refuses, writing nothing", () => {
  it(
    "more than the payment can still refund, a payment that received nothing, " + "another merchant's or no payment",
    async () => {
      const m = await newMerchant();
      const paymentId = await creditedPayment(m, ["5.000000"]);
      expect((await refund(m, { payment: paymentId, amount: "3.000000", destination: "sender" })).status).toBe(200);
      const before = await ethBalance(m);
      expectError(await refund(m, { payment: paymentId, amount: "2.000001" }), "invalid_request_error", 400, "amount");
      const unpaid = (
        await api("POST", "/v1/payments", { key: m.sandboxKey, body: { amount: "1.000000", chain: "eth" } })
      ).json.id;
      expectError(await refund(m, { payment: unpaid }), "invalid_request_error", 400, "payment");
      const other = await newMerchant();
      const foreign = await creditedPayment(other, ["1.000000"]);
      expectError(await refund(m, { payment: foreign }), "invalid_request_error", 400, "payment");
      expectError(await refund(m, { payment: "pay_nope" }), "invalid_request_error", 400, "payment");
      expect(await ethBalance(m)).toEqual(before);
      expect(await refundsOf(unpaid)).toEqual([]);
      expect(await refundsOf(foreign)).toEqual([]);
      expect((await refundsOf(paymentId)).length).toBe(1);
    },
  );

  it(
    "unusable destinations: a bad checksum, the service's own deposit address, " +
      "to_address without address, several senders",
    async () => {
      const m = await newMerchant();
      const paymentId = await creditedPayment(m, ["2.000000"]);
      const badChecksum = PAYER.replace("c", "C");
      const bad = await refund(m, { payment: paymentId, destination: "address", to_address: badChecksum });
      expectError(bad, "invalid_request_error", 400, "to_address");
      const [own] = await query<{ deposit_address: string }>(
        getDb(),
        "select deposit_address from payments where id = $1",
        [paymentId],
      );
      expectError(
        await refund(m, { payment: paymentId, destination: "address", to_address: own!.deposit_address }),
        "invalid_request_error",
        400,
        "to_address",
      );
      expectError(
        await refund(m, { payment: paymentId, to_address: PAYER }),
        "invalid_request_error",
        400,
        "to_address",
      );
      expectError(
        await refund(m, { payment: paymentId, destination: "address" }),
        "invalid_request_error",
        400,
        "to_address",
      );
      const twoPayers = await creditedPayment(m, ["1.000000", "1.000000"], [PAYER, OTHER_PAYER]);
      expectError(
        await refund(m, { payment: twoPayers, destination: "sender" }),
        "invalid_request_error",
        400,
        "destination",
      );
      expect(await refundsOf(paymentId)).toEqual([]);
      expect(await refundsOf(twoPayers)).toEqual([]);
    },
  );

  it(
    "below the chain's minimum refund (dust): 400 on amount, " + "nothing written; live minimums sit above the fee",
    async () => {
      const m = await newMerchant();
      const paymentId = await creditedPayment(m, ["1.000000"]);
      const before = await ethBalance(m);
      const err = expectError(
        await refund(m, { payment: paymentId, amount: "0.009999" }),
        "invalid_request_error",
        400,
        "amount",
      );
      expect(err.message).toBe(
        "A refund on eth is at least 0.010000 USDT: below that, its network fee would cost more than it returns.",
      );
      expect(await refundsOf(paymentId)).toEqual([]);
      expect(await ethBalance(m)).toEqual(before);
      expect((await refund(m, { payment: paymentId, amount: "0.010000", destination: "sender" })).status).toBe(200);
      // Live: the registry's per-chain floor, which <CHAIN>_REFUND_MINIMUM overrides.
      const live = loadConfig({ ...process.env, TRON_REFUND_MINIMUM: "7.500000" });
      expect(CHAINS.map((c) => formatAmount(refundMinimum(c, "live", live)))).toEqual([
        "5.000000",
        "0.500000",
        "0.100000",
        "7.500000",
        "0.500000",
      ]);
      expect(refundMinimum("tron", "sandbox", live)).toBe(10_000n);
    },
  );

  it("422 insufficient_balance when available on the chain no longer covers it (paid out meanwhile)", async () => {
    const m = await newMerchant();
    const paymentId = await creditedPayment(m, ["6.000000"]);
    await adjustBalance(getDb(), {
      merchantId: m.id,
      mode: "sandbox",
      chain: "eth",
      amount: -5_000_000n,
      reason: "test",
    });
    expectError(await refund(m, { payment: paymentId, amount: "2.000000" }), "insufficient_balance", 422, "amount");
    expect(await refundsOf(paymentId)).toEqual([]);
    expect((await api("GET", `/v1/payments/${paymentId}`, { key: m.sandboxKey })).json.amount_refunded).toBe(
      "0.000000",
    );
  });

  it("a key without refunds:write gets 403 and nothing is written; refunds:read may only read", async () => {
    const m = await newMerchant();
    const paymentId = await creditedPayment(m, ["1.000000"]);
    const payoutsOnly = (await newKey(m.id, "sandbox", ["payouts:write", "payments:read"])).secret;
    expectError(await refund(m, { payment: paymentId }, payoutsOnly), "forbidden", 403);
    const readOnly = (await newKey(m.id, "sandbox", ["refunds:read"])).secret;
    expectError(await refund(m, { payment: paymentId }, readOnly), "forbidden", 403);
    expect(await refundsOf(paymentId)).toEqual([]);
    expect((await api("GET", "/v1/refunds", { key: readOnly })).status).toBe(200);
  });

  it("20 concurrent refunds of one payment never exceed what it received", async () => {
    const m = await newMerchant();
    const paymentId = await creditedPayment(m, ["10.000000"]);
    const replies = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        api("POST", "/v1/refunds", {
          key: m.sandboxKey,
          body: { payment: paymentId, amount: "1.000000", destination: "sender" },
          server: i % 2,
        }),
      ),
    );
    const ok = replies.filter((r) => r.status === 200);
    expect(ok).toHaveLength(10);
    for (const r of replies.filter((r) => r.status !== 200)) expectError(r, "invalid_request_error", 400, "payment");
    expect((await api("GET", `/v1/payments/${paymentId}`, { key: m.sandboxKey })).json.amount_refunded).toBe(
      "10.000000",
    );
    expect((await ethBalance(m)).available).toBe("0.000000");
    expect(await checkLedgerConsistency(getDb(), m.id)).toEqual([]);
  });
});

describe("the refund policy", () => {
  it(
    "opens a claim refund of an overpayment above the threshold, once; " +
      "one the merchant canceled is not offered again",
    async () => {
      const m = await newMerchant();
      const small = await creditedPayment(m, ["10.000000", "0.500000"]);
      const large = await creditedPayment(m, ["10.000000", "1.500000"]);
      expect(await applyRefundPolicy(getDb(), large)).toEqual([]); // no policy: nothing
      await setRefundPolicy(getDb(), {
        merchant: m.id,
        mode: "sandbox",
        overpaidAboveUnits: 1_000_000n,
        refundLatePayments: false,
      });
      expect(await applyRefundPolicy(getDb(), small)).toEqual([]); // 0.5 over: within the threshold
      expect(await applyRefundPolicy(getDb(), large)).toEqual(["overpayment"]);
      const [opened] = (await api("GET", `/v1/refunds?payment=${large}`, { key: m.sandboxKey })).json.data;
      expect(opened).toMatchObject({
        amount: "1.500000",
        reason: "overpayment",
        destination: "claim",
        status: "requires_action",
      });
      expect(opened).toMatchObject({ claim_url: null, claim_pending: true }); // a list never carries the link
      expect(await applyRefundPolicy(getDb(), large)).toEqual([]);
      await api("POST", `/v1/refunds/${opened.id}/cancel`, { key: m.sandboxKey, body: {} });
      expect(await applyRefundPolicy(getDb(), large)).toEqual([]);
      expect(await refundsOf(large)).toHaveLength(1);
      expect(await checkLedgerConsistency(getDb(), m.id)).toEqual([]);
    },
  );

  it("never opens a refund below the chain's minimum, even with a threshold of 0 (dust anyone can send)", async () => {
    const m = await newMerchant();
    await setRefundPolicy(getDb(), {
      merchant: m.id,
      mode: "sandbox",
      overpaidAboveUnits: 0n,
      refundLatePayments: true,
    });
    const dust = await creditedPayment(m, ["10.000000", "0.000001"], [PAYER, OTHER_PAYER]);
    const justEnough = await creditedPayment(m, ["10.000000", "0.010000"]);
    expect(await applyRefundPolicy(getDb(), dust)).toEqual([]);
    expect(await refundsOf(dust)).toEqual([]);
    expect(await applyRefundPolicy(getDb(), justEnough)).toEqual(["overpayment"]);
  });
});
