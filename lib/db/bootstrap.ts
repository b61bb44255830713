import { config, adoptEmbeddedDatabase } from "@/lib/config/env";
import { startEmbeddedDatabase, type EmbeddedDatabase } from "./embedded";
import { migrateDatabase } from "./migrate";

/**
 * Resolves the database every entry point uses: DATABASE_URL when set (start nothing), otherwise the
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
  await migrateDatabase(database.url);
  return database;
}
