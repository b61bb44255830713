import { randomBytes } from "node:crypto";
import pg from "pg";
import { describe, expect, it } from "vitest";
import { migrateDatabase } from "@/lib/platform/db/migrate";

describe("migrations", () => {
  it("several instances migrating one fresh database at once all succeed, and the schema is complete", async () => {
    const base = new URL(process.env.DATABASE_URL!);
    const name = `usdt_migrate_${randomBytes(4).toString("hex")}`;
    const admin = new pg.Client({ connectionString: base.toString() });
    await admin.connect();
    await admin.query(`create database ${name}`);
    const url = new URL(base);
    url.pathname = `/${name}`;
    try {
      await Promise.all([
        migrateDatabase(url.toString()),
        migrateDatabase(url.toString()),
        migrateDatabase(url.toString()),
      ]);
      const client = new pg.Client({ connectionString: url.toString() });
      await client.connect();
      const tables = await client.query(
        "select table_name from information_schema.tables where table_schema = 'public' order by 1",
      );
      const applied = await client.query("select count(*)::int as n from drizzle.__drizzle_migrations");
      const jobs = await client.query("select to_regclass('graphile_worker._private_jobs') is not null as ok");
      await client.end();
      expect(tables.rows.map((r) => r.table_name)).toEqual(
        expect.arrayContaining(["api_keys", "idempotency_keys", "merchants", "payment_links", "rate_limit_buckets"]),
      );
      expect(applied.rows[0].n).toBeGreaterThan(0);
      expect(jobs.rows[0].ok).toBe(true);
      // A later start finds nothing to do.
      await migrateDatabase(url.toString());
    } finally {
      await admin.query(`drop database if exists ${name} with (force)`);
      await admin.end();
    }
  });
});
