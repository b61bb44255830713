import { randomBytes } from "node:crypto";
import path from "node:path";
import pg from "pg";
import { startEmbeddedDatabase } from "@/lib/platform/db/embedded";

export interface TestDatabase {
  url: string;
  drop(): Promise<void>;
}

/**
 * A fresh, empty database for this run: on the server named by DATABASE_URL when set (CI proves the
 * suite on the machine's PostgreSQL), otherwise on an embedded PostgreSQL kept under .data/test.
 */
export async function createTestDatabase(root: string): Promise<TestDatabase> {
  let serverUrl = process.env.DATABASE_URL;
  let stopServer = async () => {};
  if (!serverUrl) {
    const embedded = await startEmbeddedDatabase(path.join(root, ".data", "test"));
    serverUrl = embedded.url;
    stopServer = embedded.stop;
  }
  const name = `usdt_test_${Date.now()}_${randomBytes(3).toString("hex")}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const client = new pg.Client({ connectionString: serverUrl });
      await client.connect();
      await client.query(`drop database if exists ${name} with (force)`);
      await client.end();
      await stopServer();
    },
  };
}
