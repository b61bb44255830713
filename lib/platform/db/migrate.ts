import { existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { drizzle } from "drizzle-orm/node-postgres";
import { migrate } from "drizzle-orm/node-postgres/migrator";
import { Logger, runMigrations } from "graphile-worker";
import { createPool } from "./client";
import { withAdvisoryLock } from "./advisory-lock";
import type pg from "pg";

// Next to this file in the source tree; from the project root when running a bundled build of it.
const fromSource = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../../db/migrations");
const migrationsFolder = existsSync(fromSource) ? fromSource : path.resolve(process.cwd(), "db/migrations");

const quietLogger = new Logger(() => (level, message) => {
  if (level === "error" || level === "warning") console.error(`[graphile-worker] ${message}`);
});

/** A data fix that SQL cannot express, run after the schema migrations under the same lock; it must be idempotent. */
export type DataMigration = (client: pg.PoolClient) => Promise<void>;

/**
 * Applies the app's Drizzle migrations, the job runner's schema, then `dataMigrations` (which know the
 * domains, so the entry points pass them: scripts/lib/bootstrap-database.ts). Several instances may start
 * at once: a session advisory lock makes them take turns, and each finds the work already done.
 */
export async function migrateDatabase(databaseUrl: string, dataMigrations: DataMigration[] = []): Promise<void> {
  const pool = createPool(databaseUrl, 3);
  try {
    await withAdvisoryLock(pool, "usdt-payments:migrate", async (client) => {
      await migrate(drizzle(client), { migrationsFolder });
      await runMigrations({ pgPool: pool, logger: quietLogger });
      for (const dataMigration of dataMigrations) await dataMigration(client);
    });
  } finally {
    await pool.end();
  }
}
