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
  const external = process.env.DATABASE_URL;
  const database: EmbeddedDatabase = external
    ? { url: external, owned: false, stop: async () => {} }
    : await startEmbeddedDatabase(opts.dataDir, opts.log);
  process.env.DATABASE_URL = database.url;
  // Tells later code (and child processes) that DATABASE_URL points at our own embedded server.
  if (!external || process.env.EMBEDDED_DATABASE === "1")
    process.env.EMBEDDED_DATABASE = external ? process.env.EMBEDDED_DATABASE : "1";
  await migrateDatabase(database.url);
  return database;
}
