import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { drizzle } from "drizzle-orm/node-postgres";
import { migrate } from "drizzle-orm/node-postgres/migrator";
import pg from "pg";
import { describe, expect, it } from "vitest";
import { migrateDatabase } from "@/lib/platform/db/migrate";

const migrations = path.resolve(import.meta.dirname, "../../db/migrations");

/** A copy of the migrations folder that stops before `tag`: the schema as it was before that migration. */
function migrationsBefore(tag: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "migrations-"));
  const journal = JSON.parse(fs.readFileSync(path.join(migrations, "meta/_journal.json"), "utf8"));
  const cut = journal.entries.findIndex((e: { tag: string }) => e.tag.startsWith(tag));
  expect(cut).toBeGreaterThan(0);
  journal.entries = journal.entries.slice(0, cut);
  fs.mkdirSync(path.join(dir, "meta"));
  fs.writeFileSync(path.join(dir, "meta/_journal.json"), JSON.stringify(journal));
  for (const e of journal.entries)
    fs.copyFileSync(path.join(migrations, `${e.tag}.sql`), path.join(dir, `${e.tag}.sql`));
  return dir;
}

describe("the deposit position migration", () => {
  it("keys existing deposits by transaction and position; a transfer recorded twice keeps one keyed row", async () => {
    const base = new URL(process.env.DATABASE_URL!);
    const name = `usdt_backfill_${randomBytes(4).toString("hex")}`;
    const admin = new pg.Client({ connectionString: base.toString() });
    await admin.connect();
    await admin.query(`create database ${name}`);
    const url = new URL(base);
    url.pathname = `/${name}`;
    const client = new pg.Client({ connectionString: url.toString() });
    try {
      await client.connect();
      await migrate(drizzle(client), { migrationsFolder: migrationsBefore("0010_") });
      const legacy = [
        // id, chain, status, tx, log_index, block hash, created
        ["single", "eth", "credited", "0xt1", 5, "0xh1", "2026-01-01"],
        ["two_a", "eth", "credited", "0xt2", 3, "0xh2", "2026-01-01"],
        ["two_b", "eth", "credited", "0xt2", 4, "0xh2", "2026-01-01"],
        ["dropped", "eth", "orphaned", "0xt3", 2, "0xh3", "2026-01-01"],
        ["remined", "eth", "pending", "0xt3", 7, "0xh4", "2026-01-02"],
        ["sol", "solana", "credited", "sig1", 3, "slot:9", "2026-01-01"],
      ] as const;
      for (const [id, chain, status, tx, logIndex, hash, created] of legacy)
        await client.query(
          `insert into deposits (id, payment_id, merchant_id, mode, chain, kind, status, tx_hash, log_index,
             block_number, block_hash, block_time, to_address, raw_amount, amount_units, created_at)
           values ($1, 'pay_x', 'mer_x', 'sandbox', $2, 'payment', $3, $4, $5, 1, $6, now(), 'to', 1, 1, $7)`,
          [id, chain, status, tx, logIndex, hash, created],
        );

      await migrateDatabase(url.toString());
      const { rows } = await client.query("select id, position from deposits order by id");
      expect(Object.fromEntries(rows.map((r) => [r.id, r.position]))).toEqual({
        single: 0,
        two_a: 0,
        two_b: 1,
        dropped: null,
        remined: 0,
        sol: 3,
      });
      // The key now holds whatever the status: the same transfer cannot be recorded again.
      await expect(
        client.query(
          `insert into deposits (id, payment_id, merchant_id, mode, chain, kind, status, tx_hash, log_index, position,
             block_number, block_hash, block_time, to_address, raw_amount, amount_units)
           values ('again', 'pay_x', 'mer_x', 'sandbox', 'eth', 'payment', 'orphaned', '0xt1', 9, 0, 2, '0xh9',
             now(), 'to', 1, 1)`,
        ),
      ).rejects.toThrow(/deposits_transfer_key/);
    } finally {
      await client.end();
      await admin.query(`drop database if exists ${name} with (force)`);
      await admin.end();
    }
  });
});
