import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { createPool } from "@/lib/platform/db/client";
import { startEmbeddedDatabase } from "@/lib/platform/db/embedded";
import { killPostmaster } from "../helpers/started-service";

// A connection checked out of a pool when PostgreSQL dies: pg fails its queries and also emits the lost socket
// as an 'error' event on the client, which ends the process when nobody listens (a web or worker process
// crashing at every database restart). Here the failure reaches the code only as its query's rejection, and
// the pool serves again once the database is back.

describe("a pool's checked-out connection when the database dies", () => {
  it("fails its query without crashing the process; the pool serves again after the restart", async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "usdt-pool-outage-"));
    let db = await startEmbeddedDatabase(dataDir);
    const pool = createPool(db.url, 2);
    try {
      const held = await pool.connect();
      killPostmaster(path.join(dataDir, "postgres"));
      await new Promise((r) => setTimeout(r, 1_000)); // the socket's end arrives while nothing runs on it
      await expect(held.query("select 1")).rejects.toThrow();
      held.release(true);
      db = await startEmbeddedDatabase(dataDir);
      expect((await pool.query<{ one: number }>("select 1 as one")).rows).toEqual([{ one: 1 }]);
    } finally {
      await pool.end();
      await db.stop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  }, 60_000);
});
