import http from "node:http";
import { gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resetConfig } from "@/lib/platform/config/env";
import { getDb } from "@/lib/platform/db/client";
import { query } from "@/lib/platform/db/query";
import { deliverWebhooks } from "@/lib/notify/webhooks/deliver-webhook";
import { api, newMerchant } from "../helpers/api";

// This file delivers (in process) to loopback receivers: the sandbox switch.
process.env.WEBHOOKS_ALLOW_PRIVATE_URLS = "true";
resetConfig();

/** Per path: the status and the raw bytes a receiver answers, some of which a text column cannot hold. */
const ANSWERS: Record<string, { status: number; body: Buffer; headers?: Record<string, string> }> = {
  "/nul-ok": {
    status: 200,
    body: Buffer.concat([Buffer.from("ok\0"), Buffer.from([0xff, 0xfe, 0xc3]), Buffer.from(" done")]),
  },
  "/gzip-ok": { status: 200, body: gzipSync('{"received":true}'), headers: { "content-encoding": "gzip" } },
  "/nul-fail": { status: 500, body: Buffer.from("bad\0\0gateway") },
  "/plain-ok": { status: 200, body: Buffer.from("fine") },
};
const hits = new Map<string, number>();
let receiver: http.Server;
let base: string;

beforeAll(async () => {
  receiver = http.createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      const path = req.url ?? "/";
      hits.set(path, (hits.get(path) ?? 0) + 1);
      const answer = ANSWERS[path]!;
      res.writeHead(answer.status, { "content-type": "application/octet-stream", ...answer.headers }).end(answer.body);
    });
  });
  await new Promise<void>((r) => receiver.listen(0, "127.0.0.1", () => r()));
  base = `http://127.0.0.1:${(receiver.address() as { port: number }).port}`;
});
afterAll(async () => {
  receiver.closeAllConnections();
  await new Promise((r) => receiver.close(r));
});

const attempts = (eventId: string) =>
  query<{
    delivery_id: string;
    url: string;
    attempt: number;
    status_code: number;
    success: boolean;
    response_body: string;
    status: string;
  }>(
    getDb(),
    `select d.id as delivery_id, w.url, a.attempt, a.status_code, a.success, a.response_body, d.status
     from webhook_deliveries d join webhook_endpoints w on w.id = d.endpoint_id
     left join webhook_attempts a on a.delivery_id = d.id
     where d.event_id = $1 order by w.url, a.attempt`,
    [eventId],
  );

describe("receivers answering bytes a text column cannot hold (NUL, invalid UTF-8, gzip)", () => {
  it(
    "every endpoint's attempt is recorded with a safe excerpt; " + "successes stay settled and are not sent again",
    async () => {
      const m = await newMerchant();
      for (const path of Object.keys(ANSWERS))
        expect((await api("POST", "/v1/webhooks", { key: m.sandboxKey, body: { url: `${base}${path}` } })).status).toBe(
          200,
        );
      const payment = (
        await api("POST", "/v1/payments", { key: m.sandboxKey, body: { amount: "1.000000", chain: "eth" } })
      ).json;
      const [event] = await query<{ id: string }>(getDb(), "select id from events where object_id = $1", [payment.id]);

      // Another test file's worker (fast retry clock) may claim the event's job first, and retry the failure:
      // either way every endpoint's first attempt gets recorded, and a success is never sent again.
      await deliverWebhooks(getDb(), { eventId: event!.id }, { waitMs: 5_000 });
      const firstAttempts = async () => (await attempts(event!.id)).filter((r) => r.attempt === 1);
      let recorded = await firstAttempts();
      for (let waited = 0; recorded.length < 4 && waited < 10_000; waited += 100) {
        await new Promise((r) => setTimeout(r, 100));
        recorded = await firstAttempts();
      }
      expect(recorded).toHaveLength(4);
      const safe = (text: string) => !text.includes("\0") && Buffer.from(text, "utf8").toString("utf8") === text;
      for (const row of recorded) expect(safe(row.response_body), row.response_body).toBe(true);
      const byPath = (path: string) => recorded.find((r) => r.url === `${base}${path}`)!;
      expect(byPath("/nul-ok")).toMatchObject({ success: true, status_code: 200, status: "succeeded" });
      expect(byPath("/nul-ok").response_body).toBe("ok\uFFFD\uFFFD\uFFFD\uFFFD done");
      expect(byPath("/gzip-ok")).toMatchObject({ success: true, status_code: 200, status: "succeeded" });
      expect(byPath("/plain-ok")).toMatchObject({ success: true, response_body: "fine", status: "succeeded" });
      expect(byPath("/nul-fail")).toMatchObject({ success: false, status_code: 500 });
      expect(byPath("/nul-fail").status).not.toBe("succeeded");
      expect(byPath("/nul-fail").response_body).toBe("bad\uFFFD\uFFFDgateway");

      // Nothing of the successes is sent again: they are settled. The failure waits for its retry, which may be
      // due already under the other file's fast retry clock, so only it may be claimed here.
      const again = await deliverWebhooks(getDb(), { eventId: event!.id });
      expect(again.filter((r) => r.id !== byPath("/nul-fail").delivery_id)).toEqual([]);
      const succeeded = ["/nul-ok", "/gzip-ok", "/plain-ok"];
      for (const path of succeeded) expect(hits.get(path), path).toBe(1);

      // A replay to the same receivers is answered and recorded per endpoint too.
      const replay = await api("POST", `/v1/payments/${payment.id}/replay`, { key: m.sandboxKey });
      expect(replay.status).toBe(200);
      expect(replay.json.deliveries.map((d: { success: boolean }) => d.success)).toEqual([true, true, false, true]);
      const afterReplay = await attempts(event!.id);
      for (const path of succeeded)
        expect(
          afterReplay.filter((r) => r.url === `${base}${path}`),
          path,
        ).toHaveLength(2);
      expect(afterReplay.filter((r) => r.url === `${base}/nul-fail`).length).toBeGreaterThanOrEqual(2);
      for (const row of afterReplay) expect(safe(row.response_body), row.response_body).toBe(true);
    },
  );
});
