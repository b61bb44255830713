import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { startEmbeddedDatabase } from "@/lib/platform/db/embedded";
import {
  expectEachOnce,
  healthShows,
  hooked,
  killPostmaster,
  sleep,
  startService,
  until,
} from "../helpers/started-service";
import { startReceiver } from "../helpers/webhook-receiver";

// The operator's own PostgreSQL (DATABASE_URL) killed under `npm start` and started again by its operator
// after an outage: web and worker ride it out without a manual step (a file of its own so that it runs
// beside the embedded case, tests/start/database-restart.test.ts).

describe("a database killed under npm start", () => {
  it("external DATABASE_URL: web and worker ride out the server's restart; nothing lost or doubled", async () => {
    // The operator's own PostgreSQL (an embedded one started here, outside npm start): killed, down for a
    // while as a real restart or failover would be, then started again by the "operator".
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "usdt-extkill-"));
    fs.chmodSync(dataDir, 0o755); // PostgreSQL runs as its own user when started as root
    const dbDir = path.join(dataDir, "operator-db");
    let database = await startEmbeddedDatabase(dbDir);
    const receiver = await startReceiver();
    const service = await startService(path.join(dataDir, "service"), database.url);
    try {
      expect((await service.call("POST", "/v1/webhooks", { url: receiver.url("/hook") }, randomUUID())).status).toBe(
        200,
      );
      const ids = [await service.createPayment("before")];
      await hooked(receiver, ids[0]!);
      for (const round of [1, 2]) {
        killPostmaster(path.join(dbDir, "postgres"));
        const down = await healthShows(service, "the database down", (b) => b.database === "down");
        expect(down.body.ok).toBe(false);
        const during = service.createPayment(`during-${round}`);
        await sleep(15_000);
        database = await startEmbeddedDatabase(dbDir);
        await until(`round ${round}: health ok again`, async () => (await service.health()).status === 200, 60_000);
        ids.push(await during);
        ids.push(await service.createPayment(`after-${round}`));
      }
      for (const id of ids) await hooked(receiver, id);
      await expectEachOnce(service, ids);
    } finally {
      await service.stop();
      await database.stop();
      await receiver.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  }, 300_000);
});
