import { config, adoptEmbeddedDatabase } from "@/lib/platform/config/env";
import { backfillTronWatchKeys } from "@/lib/chains/tron/backfill-tron-watch-keys";
import { startEmbeddedDatabase, type EmbeddedDatabase } from "@/lib/platform/db/embedded";
import { migrateDatabase } from "@/lib/platform/db/migrate";
import { removeRetiredJobs } from "@/lib/platform/jobs/retired-jobs";

/**
 * Resolves the database every entry point (scripts/) uses: DATABASE_URL when set (start nothing), otherwise the
 * embedded PostgreSQL under DATA_DIR. Migrates before returning, and exports DATABASE_URL so that
 * child processes and getDb() in this process connect to the same server.
 */
export async function bootstrapDatabase(opts: {
  dataDir: string;
  log?: (line: string) => void;
}): Promise<EmbeddedDatabase> {
  const external = config().databaseUrl;
  const database: EmbeddedDatabase = external
    ? { url: external, owned: false, stop: async () => {} }
    : await startEmbeddedDatabase(opts.dataDir, opts.log);
  if (!external) adoptEmbeddedDatabase(database.url);
  await migrateDatabase(database.url, [backfillTronWatchKeys, removeRetiredJobs]);
  return database;
}
