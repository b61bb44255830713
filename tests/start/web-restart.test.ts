import { randomUUID } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { npmStartChild } from "../helpers/npm-start-children";
import {
  expectEachOnce,
  expectLedgerConsistent,
  healthShows,
  sleep,
  startService,
  until,
} from "../helpers/started-service";

// A web process SIGKILLed under load: clients POST with Idempotency-Keys, as a real client would, retrying a
// request that got no answer (the connection cut, even mid-body, or refused while the web restarts) with the same key.
// The supervisor starts the web again; no answer is a 5xx, no retried request makes a second payment or event, and
// the books stay consistent. Then the worker is killed: /api/health names it until it is up again.
const CLIENTS = 3;

/** The merchant's events (type and object), waiting out the key's rate limit the load may have used up. */
async function eventsOf(service: Awaited<ReturnType<typeof startService>>) {
  for (;;) {
    const res = await service.call("GET", "/v1/events?limit=100");
    if (res.status === 429) {
      await sleep(Number(res.headers.get("retry-after") ?? 1) * 1000);
      continue;
    }
    expect(res.status).toBe(200);
    const body = (await res.json()) as { data: { type: string; data: { object: { id: string } } }[] };
    return body.data.map((e) => ({ type: e.type, id: e.data.object.id }));
  }
}

describe("a web process killed under load", () => {
  it("is started again; retried POSTs answer without a 5xx and make each payment once", async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "usdt-webkill-"));
    const service = await startService(dataDir);
    const statuses = new Map<number, number>();
    let cut = 0;
    let stop = false;
    /** One payment per key: retried on no answer (connection cut or refused) with the same key until it answers. */
    const create = async (order: string) => {
      const key = randomUUID();
      for (;;) {
        // The answer counts once its body is read: a kill can cut the connection after the status line, and a
        // client then retries with the same key, as for no answer at all.
        const res = await service
          .call("POST", "/v1/payments", { amount: "1.000000", metadata: { order } }, key)
          .then(async (r) => ({ status: r.status, text: await r.text() }))
          .catch(() => null);
        if (!res) {
          cut++;
          await sleep(100);
          continue;
        }
        statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
        if (res.status === 429) {
          await sleep(1_000);
          continue;
        }
        expect(res.status, res.text).toBe(200);
        return (JSON.parse(res.text) as { id: string }).id;
      }
    };
    try {
      // Paced under the key's 60 requests a minute, so that nearly every request is a real one.
      const load = Array.from({ length: CLIENTS }, async (_, c) => {
        const ids: string[] = [];
        for (let i = 0; !stop; i++) {
          ids.push(await create(`c${c}-${i}`));
          await sleep(1_000);
        }
        return ids;
      });
      for (const round of [1, 2]) {
        await sleep(2_000);
        process.kill(npmStartChild(service.pgid, "start-web"), "SIGKILL");
        await until(
          `round ${round}: the web restarted`,
          async () =>
            (service.out().match(/\[start\] web exited/g)?.length ?? 0) === round &&
            (await service.health()).status === 200,
          90_000,
        );
      }
      await sleep(2_000);
      stop = true;
      const ids = (await Promise.all(load)).flat();
      expect(ids.length).toBeGreaterThan(CLIENTS * 3);
      expect(ids.length).toBeLessThan(100);
      await expectEachOnce(service, ids);
      expect([...statuses.keys()].filter((s) => s >= 500)).toEqual([]);
      expect(cut).toBeGreaterThan(0); // requests met the web down (cut, or refused while it restarted)
      expect(service.out().match(/\[start\] web exited/g)).toHaveLength(2);
      // Each payment said once (its payment.awaiting_payment), and the books consistent.
      const said = await eventsOf(service);
      expect(
        said
          .filter((e) => e.type === "payment.awaiting_payment")
          .map((e) => e.id)
          .sort(),
      ).toEqual([...ids].sort());
      expect(new Set(said.map((e) => `${e.type} ${e.id}`)).size).toBe(said.length);
      await expectLedgerConsistent(dataDir);

      // The worker killed too: /api/health (served by the web) names it while the supervisor starts it again.
      process.kill(npmStartChild(service.pgid, "start-worker"), "SIGKILL");
      const down = await healthShows(service, "the worker down", (b) => b.processes.worker?.state !== "up");
      expect(down.body).toMatchObject({ ok: false, database: "up", processes: { web: { state: "up" } } });
      await until("the worker up again", async () => (await service.health()).status === 200, 90_000);
      expect((await service.health()).body.processes.worker).toMatchObject({
        state: "up",
        restarts: 1,
        last_exit: "SIGKILL",
      });
    } finally {
      stop = true;
      await service.stop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  }, 300_000);
});
