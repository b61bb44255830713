import { randomBytes } from "node:crypto";
import { type Column, eq, getTableColumns, getTableName, type Table } from "drizzle-orm";
import type { PgColumn, PgTable } from "drizzle-orm/pg-core";
import { describe, expect, expectTypeOf, it } from "vitest";
import { customers } from "@/db/schema/customers";
import { paymentLinks } from "@/db/schema/payment-links";
import { payments } from "@/db/schema/payments";
import { payouts } from "@/db/schema/payouts";
import { webhookEndpoints } from "@/db/schema/webhooks";
import type { Metadata } from "@/lib/kernel/schemas/metadata";
import type { Chain } from "@/lib/chains/chains";
import { getDb } from "@/lib/platform/db/client";
import { query } from "@/lib/platform/db/query";
import type { RowMapper } from "@/lib/platform/db/row-mapper";
import type { Mode } from "@/lib/kernel/mode";
import { createMerchant } from "@/lib/identity/merchants/create-merchant";
import { customerRow } from "@/lib/money-in/customers/customer-row";
import { paymentLinkRow, type PaymentLinkRow } from "@/lib/money-in/payment-links/payment-link-row";
import { paymentRow, type PaymentRow, type PaymentStatus } from "@/lib/money-in/payments/payment-row";
import { payoutRow, type PayoutRow } from "@/lib/money-out/payouts/payout-row";
import type { PayoutStatus } from "@/lib/money-out/payouts/schemas";
import type { EventType } from "@/lib/notify/events/event-types";
import { webhookEndpointRow, type WebhookEndpointRow } from "@/lib/notify/webhooks/webhook-endpoint-row";

const unique = () => randomBytes(6).toString("hex");

// A non-null value of each column type, so a column added to a table is filled (and checked) without
// touching this test; an unknown type fails here as it fails in rowMapper.
function sampleValue(column: Column): { sql: unknown; js: string } {
  switch (column.columnType) {
    case "PgText":
      return { sql: `${column.name}_${unique()}`, js: "string" };
    case "PgBigInt64":
      return { sql: "9007199254740993", js: "bigint" }; // above 2^53: a Number would lose the last digit
    case "PgBigInt53":
      return { sql: "123456789", js: "number" };
    case "PgInteger":
      return { sql: 7, js: "number" };
    case "PgBoolean":
      return { sql: false, js: "boolean" };
    case "PgTimestamp":
      return { sql: new Date("2026-01-02T03:04:05.678Z"), js: "Date" };
    case "PgJsonb":
      return { sql: JSON.stringify({ order: "A-1", count: 2, gift: true }), js: "object" };
    case "PgArray":
      return { sql: ["payment.confirmed", "payout.failed"], js: "array" };
    default:
      throw new Error(`no sample value for ${column.name} (${column.columnType}); add one`);
  }
}

const jsType = (v: unknown) => (v instanceof Date ? "Date" : Array.isArray(v) ? "array" : typeof v);

/** Inserts a row with every column non-null (constrained columns from `fixed`), reads it back both ways. */
async function roundTrip<T extends PgTable>(table: T, mapper: RowMapper<T>, fixed: Record<string, unknown>) {
  const entries = Object.entries(getTableColumns(table) as Record<string, PgColumn>);
  const values = entries.map(([, c]) => (c.name in fixed ? fixed[c.name] : sampleValue(c).sql));
  const id = values[entries.findIndex(([key]) => key === "id")] as string;
  const names = entries.map(([, c]) => c.name);
  await query(
    getDb(),
    `insert into ${getTableName(table)} (${names.join(", ")}) values (${names.map((_, i) => `$${i + 1}`).join(", ")})`,
    values,
  );
  const [raw] = await query(getDb(), `select * from ${getTableName(table)} where id = $1`, [id]);
  const idColumn = (table as unknown as { id: PgColumn }).id;
  const [drizzleRow] = await getDb()
    .select()
    .from(table as PgTable)
    .where(eq(idColumn, id));
  return { entries, raw: raw!, mapped: mapper.map(raw!) as Record<string, unknown>, drizzleRow };
}

async function owner() {
  const { merchant } = await createMerchant(getDb(), { name: "Row mapper merchant", email: "rows@example.com" });
  return { merchant_id: merchant.id, mode: "sandbox" };
}

const cases: { name: string; table: PgTable; mapper: RowMapper<any>; fixed: () => Promise<Record<string, unknown>> }[] =
  [
    {
      name: "payments",
      table: payments,
      mapper: paymentRow,
      fixed: async () => {
        const own = await owner();
        const customer = `cus_rows${Date.now()}${Math.random().toString(36).slice(2, 8)}`;
        await query(getDb(), "insert into customers (id, merchant_id, mode) values ($1, $2, $3)", [
          customer,
          own.merchant_id,
          own.mode,
        ]);
        return { ...own, status: "confirmed", chain: "tron", customer_id: customer };
      },
    },
    {
      name: "payouts",
      table: payouts,
      mapper: payoutRow,
      fixed: async () => ({ ...(await owner()), status: "processing", chain: "eth" }),
    },
    { name: "payment_links", table: paymentLinks, mapper: paymentLinkRow, fixed: owner },
    { name: "webhook_endpoints", table: webhookEndpoints, mapper: webhookEndpointRow, fixed: owner },
    { name: "customers", table: customers, mapper: customerRow, fixed: owner },
  ];

describe("row mappers derived from the Drizzle tables", () => {
  for (const { name, table, mapper, fixed } of cases) {
    it(`${name}: columns lists every column of the table and of the database table`, async () => {
      const sqlNames = Object.values(getTableColumns(table as Table)).map((c) => c.name);
      expect(mapper.columns.split(", ")).toEqual(sqlNames);
      expect(mapper.prefixed("t")).toBe(sqlNames.map((c) => `t.${c}`).join(", "));
      const inDb = await query<{ column_name: string }>(
        getDb(),
        "select column_name from information_schema.columns where table_schema = current_schema() and table_name = $1",
        [name],
      );
      expect(inDb.map((r) => r.column_name).sort()).toEqual([...sqlNames].sort());
    });

    it(`${name}: a full row maps to exactly the table's keys, typed as Drizzle's own select returns them`, async () => {
      const { entries, raw, mapped, drizzleRow } = await roundTrip(table, mapper, await fixed());
      expect(Object.keys(mapped)).toEqual(entries.map(([key]) => key));
      for (const [key, column] of entries) expect([key, jsType(mapped[key])]).toEqual([key, sampleValue(column).js]);
      expect(mapped).toEqual(drizzleRow);
      expect(() => mapper.map({ ...raw, id: undefined })).toThrow(/no id/);
    });
  }
});

describe("row types", () => {
  it("are the tables' select models, narrowed in the schema where the domain has a union", () => {
    expectTypeOf(paymentRow.map).returns.toEqualTypeOf<typeof payments.$inferSelect>();
    expectTypeOf(payoutRow.map).returns.toEqualTypeOf<typeof payouts.$inferSelect>();
    expectTypeOf(paymentLinkRow.map).returns.toEqualTypeOf<typeof paymentLinks.$inferSelect>();
    expectTypeOf(webhookEndpointRow.map).returns.toEqualTypeOf<typeof webhookEndpoints.$inferSelect>();
    expectTypeOf<PaymentRow["status"]>().toEqualTypeOf<PaymentStatus>();
    expectTypeOf<PaymentRow["chain"]>().toEqualTypeOf<Chain | null>();
    expectTypeOf<PaymentRow["mode"]>().toEqualTypeOf<Mode>();
    expectTypeOf<PaymentRow["metadata"]>().toEqualTypeOf<Metadata>();
    expectTypeOf<PaymentRow["amountUnits"]>().toEqualTypeOf<bigint>();
    expectTypeOf<PayoutRow["status"]>().toEqualTypeOf<PayoutStatus>();
    expectTypeOf<PayoutRow["chain"]>().toEqualTypeOf<Chain>();
    expectTypeOf<PayoutRow["metadata"]>().toEqualTypeOf<Metadata>();
    expectTypeOf<PaymentLinkRow["deactivatedAt"]>().toEqualTypeOf<Date | null>();
    expectTypeOf<WebhookEndpointRow["events"]>().toEqualTypeOf<EventType[]>();
  });
});
