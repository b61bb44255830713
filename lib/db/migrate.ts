import { existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { drizzle } from "drizzle-orm/node-postgres";
import { migrate } from "drizzle-orm/node-postgres/migrator";
import { Logger, runMigrations } from "graphile-worker";
import { createPool } from "./client";
import { withAdvisoryLock } from "./advisory-lock";
import { watchKey } from "@/lib/chains/watch-key";
import type pg from "pg";

// Next to this file in the source tree; from the project root when running a bundled build of it.
const fromSource = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../db/migrations");
const migrationsFolder = existsSync(fromSource) ? fromSource : path.resolve(process.cwd(), "db/migrations");

const quietLogger = new Logger(() => (level, message) => {
  if (level === "error" || level === "warning") console.error(`[graphile-worker] ${message}`);
});

/**
 * Applies the app's Drizzle migrations and the job runner's schema. Several instances may start at
 * once: a session advisory lock makes them take turns, and each finds the work already done.
 */
export async function migrateDatabase(databaseUrl: string): Promise<void> {
  const pool = createPool(databaseUrl, 3);
  try {
    await withAdvisoryLock(pool, "usdt-payments:migrate", async (client) => {
      await migrate(drizzle(client), { migrationsFolder });
      await runMigrations({ pgPool: pool, logger: quietLogger });
      await backfillTronWatchKeys(client);
    });
  } finally {
    await pool.end();
  }
}

/** Tron payments created before chain watching need their watch key, which SQL cannot decode (0009). */
async function backfillTronWatchKeys(client: pg.PoolClient): Promise<void> {
  const { rows } = await client.query<{ id: string; deposit_address: string }>(
    "select id, deposit_address from payments where chain = 'tron' and deposit_address is not null and watch_key is null",
  );
  for (const row of rows)
    await client.query("update payments set watch_key = $2 where id = $1", [
      row.id,
      watchKey("tron", row.deposit_address),
    ]);
}
