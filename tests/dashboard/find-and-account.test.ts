import { beforeAll, describe, expect, it } from "vitest";
import { adjustBalance } from "@/lib/books/ledger/adjust-balance";
import { loadBalanceTransactionsPage } from "@/lib/dashboard/views/balance-transactions-view";
import { exportFiltersOf } from "@/lib/dashboard/views/export-filters";
import { loadSearchResults } from "@/lib/dashboard/views/search-results";
import { loadStatementPage } from "@/lib/dashboard/views/statement-view";
import { getDb } from "@/lib/platform/db/client";
import { api, newMerchant, type TestMerchant } from "../helpers/api";

// The dashboard's search, export filters, balance history and statement read through the API's lib; these check
// what each page makes of its query (docs/DASHBOARD.md#find-and-account).
let m: TestMerchant;
let other: TestMerchant;
const owner = () => ({ merchantId: m.id, mode: "sandbox" as const });

beforeAll(async () => {
  [m, other] = await Promise.all([newMerchant("Atlas Games"), newMerchant("Atlas, someone else")]);
  for (const who of [m, other]) {
    const made = await api("POST", "/v1/payments", {
      key: who.sandboxKey,
      body: { amount: "9.990000", chain: "solana", metadata: { player: "P-77" } },
    });
    expect(made.status, made.text).toBe(200);
  }
  for (const amount of [3_000_000n, 4_000_000n, -1_000_000n])
    await adjustBalance(getDb(), { merchantId: m.id, mode: "sandbox", chain: "solana", amount, reason: "test" });
});

describe("the dashboard's search", () => {
  it("finds the merchant's own, links each result to its page, and says what is wrong with a query", async () => {
    const found = await loadSearchResults(getDb(), owner(), "viewer", "  P-77 ");
    expect(found).toMatchObject({ query: "P-77", error: null, more: false });
    expect(found.results).toEqual([
      expect.objectContaining({ kind: "payment", amount: "9.990000", chain: "solana", status: "awaiting_payment" }),
    ]);
    expect(found.results[0]!.href).toBe(`/dashboard/payments/${found.results[0]!.id}`);
    expect(await loadSearchResults(getDb(), owner(), "viewer", "")).toEqual({
      query: "",
      error: null,
      results: [],
      more: false,
    });
    const bad = await loadSearchResults(getDb(), owner(), "viewer", "colour:blue");
    expect(bad.error).toMatch(/^unknown field 'colour'/);
    expect((await loadSearchResults(getDb(), { ...owner(), mode: "live" }, "owner", "P-77")).results).toEqual([]);
  });
});

describe("export filters: what the page shows", () => {
  it("maps each list page's query to its export's filters, and refuses a query the page refuses", () => {
    expect(exportFiltersOf("payments", { chain: "eth", from: "2026-11-01", to: "2026-11-30", after: "pay_x" })).toEqual(
      {
        chain: "eth",
        created: { gte: new Date("2026-11-01T00:00:00Z"), lt: new Date("2026-12-01T00:00:00Z") },
      },
    );
    expect(exportFiltersOf("payments", { q: "0xabc" })).toEqual({ search: "0xabc" });
    expect(exportFiltersOf("payments", { from: "2026-13-01" })).toBeNull();
    expect(exportFiltersOf("payouts", { status: "confirmed" })).toEqual({ status: "confirmed" });
    expect(exportFiltersOf("payouts", { status: "succeeded" })).toBeNull();
    expect(exportFiltersOf("refunds", { status: "succeeded" })).toEqual({ status: "succeeded" });
    expect(exportFiltersOf("refunds", {})).toEqual({});
    expect(exportFiltersOf("balance_transactions", { chain: "tron", type: "payout" })).toEqual({
      chain: "tron",
      type: "payout",
    });
    expect(exportFiltersOf("balance_transactions", { type: "fee" })).toBeNull();
  });
});

describe("balance history and statement pages", () => {
  it("balance history pages newest first with the balance each left, narrowed by chain", async () => {
    const first = await loadBalanceTransactionsPage(getDb(), owner(), { chain: "solana" });
    expect(first.rows.map((t) => [t.amount, t.available_after])).toEqual([
      ["-1.000000", "6.000000"],
      ["4.000000", "7.000000"],
      ["3.000000", "3.000000"],
    ]);
    expect(first.next).toBeUndefined();
    expect((await loadBalanceTransactionsPage(getDb(), owner(), { chain: "tron" })).rows).toEqual([]);
    const stale = await loadBalanceTransactionsPage(getDb(), owner(), {
      after: "txn_00000000000000000000000000000000",
    });
    expect(stale).toMatchObject({ stale: true, rows: [] });
  });

  it("the statement defaults to this month so far, includes its last day, and says which date is wrong", async () => {
    const now = new Date();
    const page = await loadStatementPage(getDb(), owner(), { chain: "solana" }, now);
    const today = now.toISOString().slice(0, 10);
    expect(page.form).toEqual({ from: `${today.slice(0, 7)}-01`, to: today, chain: "solana" });
    expect(page.statement!.chains).toEqual([
      expect.objectContaining({ opening_balance: "0.000000", closing_balance: "6.000000", transactions: 3 }),
    ]);
    expect(page.statement!.to).toBe(new Date(Date.parse(`${today}T00:00:00Z`) + 86_400_000).toISOString());
    const wrong = await loadStatementPage(getDb(), owner(), { from: "2026-12-10", to: "2026-12-01", chain: "btc" });
    expect(wrong).toMatchObject({
      statement: null,
      errors: { to: "The end date must not be before the start date.", chain: "Choose a network from the list." },
    });
    expect((await loadStatementPage(getDb(), owner(), { from: "yesterday" })).errors.from).toMatch(/YYYY-MM-DD/);
  });
});
