import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { expectEachOnce, healthShows, hooked, killPostmaster, startService, until } from "../helpers/started-service";
import { startReceiver } from "../helpers/webhook-receiver";

// A killed PostgreSQL must not stop money silently. Under `npm start` the embedded server's postmaster is
// SIGKILLed, twice, while payments are created and their webhooks delivered: the supervisor starts it again,
// /api/health says what is down meanwhile, and web and worker carry on without a manual step: no request
// retried with its Idempotency-Key makes a second payment, and every payment's webhook arrives.

describe("a database killed under npm start", () => {
  it("embedded: started again; web and worker ride it out; health names it meanwhile; nothing lost or doubled", async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "usdt-dbkill-"));
    const receiver = await startReceiver();
    const service = await startService(dataDir);
    try {
      expect((await service.call("POST", "/v1/webhooks", { url: receiver.url("/hook") }, randomUUID())).status).toBe(
        200,
      );
      expect(await service.health()).toMatchObject({
        status: 200,
        body: {
          ok: true,
          database: "up",
          processes: { database: { state: "up" }, web: { state: "up" }, worker: { state: "up" } },
        },
      });
      const ids = [await service.createPayment("before")];
      await hooked(receiver, ids[0]!);
      for (const round of [1, 2]) {
        killPostmaster(path.join(dataDir, "postgres"));
        const down = await healthShows(
          service,
          "the database restarting",
          (b) => b.processes.database?.state === "restarting",
        );
        expect(down.body.ok).toBe(false);
        // Clients keep trying meanwhile; then everything answers again, on its own.
        const during = service.createPayment(`during-${round}`);
        await until(`round ${round}: health ok again`, async () => (await service.health()).status === 200, 90_000);
        ids.push(await during);
        ids.push(await service.createPayment(`after-${round}`));
      }
      for (const id of ids) await hooked(receiver, id);
      await expectEachOnce(service, ids);
      expect(service.out()).toContain("[database] PostgreSQL stopped answering");
      expect(service.out()).not.toContain("giving up");
    } finally {
      await service.stop();
      await receiver.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  }, 300_000);
});
